// n8n's store for processed items, as n8n's CLI supplies it around the engine
// (packages/cli/src/deduplication/deduplication-helper.ts, 2.41.1 and
// 1.123.81): one row per workflow and scope ('n:<node id>' or ''), holding md5
// hashes of the keys in 'entries' mode, trimmed to maxEntries from the oldest,
// read, changed and written back with no lock. Here the rows are in memory, and
// a read and its write are a turn of the event loop apart, so that two
// executions at once can overwrite each other's writes as they can in n8n.
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
} from 'n8n-workflow';

const hash = (value: DeduplicationItemTypes) =>
	createHash('md5').update(value.toString()).digest('base64');

export class ProcessedRows implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();
	/** How long a database round trip takes between a read and its write: long enough, and executions at once overlap. */
	latencyMs = 0;
	/** Each call, in order: what it was, how many keys, and for a removal the comparisons n8n's findIndex made. */
	readonly calls: Array<{
		call: 'check' | 'remove' | 'count' | 'clear';
		keys: number;
		compared?: number;
	}> = [];
	/** The next call fails with this, before it reads or writes anything. */
	failNext: Error | undefined;

	private called(call: 'check' | 'remove' | 'count' | 'clear', keys: number) {
		const failure = this.failNext;
		this.failNext = undefined;
		if (failure) throw failure;
		const entry: (typeof this.calls)[number] = { call, keys };
		this.calls.push(entry);
		return entry;
	}

	/** Off in unit tests on a virtual clock: a read and its write are a microtask apart. */
	turns = true;

	private turn(): Promise<void> {
		if (!this.turns) return Promise.resolve();
		return new Promise((resolve) =>
			this.latencyMs > 0 ? setTimeout(resolve, this.latencyMs) : setImmediate(resolve),
		);
	}

	private rowOf(scope: DeduplicationScope, data: ICheckProcessedContextData): string {
		if (scope === 'node' && !data.node) throw new Error("No node information for scope 'node'");
		if (!data.workflow.id) throw new Error('No workflow id');
		return `${data.workflow.id}|${scope === 'node' ? `n:${data.node?.id}` : ''}`;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	) {
		if (options.mode !== 'entries') throw new Error('Only the entries mode is used here');
		this.called('check', items.length);
		const row = this.rowOf(scope, data);
		const read = [...(this.rows.get(row) ?? [])];
		await this.turn();
		const seen = new Set(read);
		const result = {
			new: [] as DeduplicationItemTypes[],
			processed: [] as DeduplicationItemTypes[],
		};
		for (const item of items) {
			const hashed = hash(item);
			if (seen.has(hashed)) result.processed.push(item);
			else {
				result.new.push(item);
				read.push(hashed);
			}
		}
		if (options.maxEntries) read.splice(0, read.length - options.maxEntries);
		this.rows.set(row, read);
		return result;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	) {
		const entry = this.called('remove', items.length);
		const row = this.rowOf(scope, data);
		const read = [...(this.rows.get(row) ?? [])];
		await this.turn();
		// n8n's findIndex: each key costs the row up to where it is, or the whole row.
		entry.compared = 0;
		for (const item of items) {
			const at = read.indexOf(hash(item));
			entry.compared += at === -1 ? read.length : at + 1;
			if (at !== -1) read.splice(at, 1);
		}
		this.rows.set(row, read);
	}

	async clearAllProcessedItems(scope: DeduplicationScope, data: ICheckProcessedContextData) {
		this.called('clear', 0);
		this.rows.delete(this.rowOf(scope, data));
	}

	async getProcessedDataCount(scope: DeduplicationScope, data: ICheckProcessedContextData) {
		this.called('count', 0);
		return this.rows.get(this.rowOf(scope, data))?.length ?? 0;
	}

	/** Every row, as a crash leaves the database: a copy to put back (restore). */
	snapshot(): Map<string, string[]> {
		return new Map([...this.rows].map(([row, keys]) => [row, [...keys]]));
	}

	restore(snapshot: Map<string, string[]>): void {
		this.rows.clear();
		for (const [row, keys] of snapshot) this.rows.set(row, [...keys]);
	}

	/** Another execution's write, made from `read` (an earlier copy of the row) plus its `keys`, lands now: what was written since is lost. */
	staleWrite(row: string, read: string[], keys: string[]): void {
		const hashes = keys.map(hash).filter((key) => !read.includes(key));
		this.rows.set(row, [...read, ...hashes]);
	}

	/** How many keys the store holds in all. */
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
