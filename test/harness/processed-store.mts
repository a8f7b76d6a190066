// n8n's store for processed items, as n8n's CLI supplies it around the engine
// (packages/cli/src/deduplication/deduplication-helper.ts): one row per workflow
// and scope, md5 hashes in 'entries' mode trimmed to maxEntries from the oldest,
// read, changed and written back with no lock. Here in memory, a read and its
// write a turn of the event loop apart, so executions at once can overwrite each other.
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes as Item,
	DeduplicationScope as Scope,
	ICheckProcessedContextData as Data,
	ICheckProcessedOptions,
	IDataDeduplicator,
} from 'n8n-workflow';

type Call = 'check' | 'remove' | 'count' | 'clear';
const hash = (value: Item) => createHash('md5').update(value.toString()).digest('base64');

export class ProcessedRows implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();
	/** A database round trip between a read and its write: long enough, and executions at once overlap. */
	latencyMs = 0;
	/** Off in unit tests on a virtual clock: a read and its write are a microtask apart. */
	turns = true;
	readonly calls: Array<{ call: Call; keys: number }> = [];
	/** The next call fails with this, before it reads or writes anything. */
	failNext: Error | undefined;

	/** Checks the call may go, and reads its row. */
	private async read(call: Call, keys: number, scope: Scope, data: Data) {
		const failure = this.failNext;
		this.failNext = undefined;
		if (failure) throw failure;
		this.calls.push({ call, keys });
		if (scope === 'node' && !data.node) throw new Error("No node information for scope 'node'");
		if (!data.workflow.id) throw new Error('No workflow id');
		const row = `${data.workflow.id}|${scope === 'node' ? `n:${data.node?.id}` : ''}`;
		const read = [...(this.rows.get(row) ?? [])];
		if (this.turns && call !== 'count' && call !== 'clear')
			await new Promise((resolve) =>
				this.latencyMs > 0 ? setTimeout(resolve, this.latencyMs) : setImmediate(resolve),
			);
		return { row, read };
	}

	async checkProcessedAndRecord(
		items: Item[],
		scope: Scope,
		data: Data,
		options: ICheckProcessedOptions,
	) {
		if (options.mode !== 'entries') throw new Error('Only the entries mode is used here');
		const { row, read } = await this.read('check', items.length, scope, data);
		const seen = new Set(read);
		const result = { new: [] as Item[], processed: [] as Item[] };
		for (const item of items) {
			const known = seen.has(hash(item));
			(known ? result.processed : result.new).push(item);
			if (!known) read.push(hash(item));
		}
		if (options.maxEntries) read.splice(0, read.length - options.maxEntries);
		this.rows.set(row, read);
		return result;
	}

	async removeProcessed(items: Item[], scope: Scope, data: Data) {
		const { row, read } = await this.read('remove', items.length, scope, data);
		const gone = new Set(items.map(hash));
		this.rows.set(
			row,
			read.filter((key) => !gone.has(key)),
		);
	}

	async clearAllProcessedItems(scope: Scope, data: Data) {
		this.rows.delete((await this.read('clear', 0, scope, data)).row);
	}

	async getProcessedDataCount(scope: Scope, data: Data) {
		return (await this.read('count', 0, scope, data)).read.length;
	}

	/** Every row, as a crash leaves the database: a copy to put back (restore). */
	snapshot(): Map<string, string[]> {
		return new Map([...this.rows].map(([row, keys]) => [row, [...keys]]));
	}

	restore(snapshot: Map<string, string[]>): void {
		this.rows.clear();
		for (const [row, keys] of snapshot) this.rows.set(row, [...keys]);
	}

	/** Another execution's write, made from `read` (an earlier copy of the row), lands now: what was written since is lost. */
	staleWrite(row: string, read: string[]): void {
		this.rows.set(row, [...read]);
	}

	get size(): number {
		return [...this.rows.values()].reduce((sum, keys) => sum + keys.length, 0);
	}
}

let rows: ProcessedRows | undefined;

/** The store n8n-core's helpers use in this process, set up once. */
export async function processedRows(): Promise<ProcessedRows> {
	if (!rows) {
		rows = new ProcessedRows();
		await DataDeduplicationService.init(rows);
	}
	return rows;
}
