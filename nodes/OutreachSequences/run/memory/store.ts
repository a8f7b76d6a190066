/** The node's row in n8n's store for processed items, and the line its calls take in this process. */
import type { IExecuteFunctions } from 'n8n-workflow';

export const MOST_ITEMS = 50_000;
/** Each item costs 3 entries (memory.ts), plus room for the runs' claim tags; n8n drops the oldest past it. */
export const ROW_MAX_ENTRIES = 3 * MOST_ITEMS + 1_000;

// n8n removes each key with a search of the whole row, so one remove call compares at most this many.
const REMOVE_COMPARISONS = 5_000_000;

export interface ProcessedStore {
	checkAndRecord(keys: string[]): Promise<Set<string>>;
	remove(keys: string[]): Promise<void>;
}

export type StoreHelpers = Partial<
	Pick<IExecuteFunctions['helpers'], 'checkProcessedAndRecord' | 'removeProcessed'>
>;

/** Two executions' first insert of a row collide on its unique key, one writing nothing: the one failure safe to repeat. */
export function isFirstInsertRace(error: unknown): boolean {
	const { code, message, driverError } = (error ?? {}) as {
		code?: unknown;
		message?: unknown;
		driverError?: { code?: unknown };
	};
	const codes = [code, driverError?.code].map(String);
	if (codes.some((value) => ['23505', 'ER_DUP_ENTRY', 'SQLITE_CONSTRAINT'].includes(value)))
		return true;
	return /UNIQUE constraint failed|duplicate key value violates unique constraint/i.test(
		String(message ?? ''),
	);
}

export function processedStoreOf(context: IExecuteFunctions): ProcessedStore | undefined {
	const workflowId = context.getWorkflow().id;
	if (!workflowId) return undefined;
	return processedStoreOver(
		context.helpers as StoreHelpers,
		`${workflowId}|${context.getNode().id}`,
	);
}

export function processedStoreOver(
	helpers: StoreHelpers,
	row?: string,
	maxEntries = ROW_MAX_ENTRIES,
): ProcessedStore | undefined {
	const { checkProcessedAndRecord, removeProcessed } = helpers;
	if (typeof checkProcessedAndRecord !== 'function' || typeof removeProcessed !== 'function')
		return undefined;
	const options = { mode: 'entries' as const, maxEntries };
	const check = async (keys: string[]) => {
		const call = async () => await checkProcessedAndRecord.call(helpers, keys, 'node', options);
		const { processed } = await call().catch(async (error: unknown) => {
			if (isFirstInsertRace(error)) return await call();
			throw error;
		});
		return new Set(processed.map(String));
	};
	const chunk = Math.max(1, Math.floor(REMOVE_COMPARISONS / maxEntries));
	return {
		checkAndRecord: async (keys) =>
			row === undefined ? await check(keys) : await inLine(row, keys, check),
		async remove(keys) {
			for (let from = 0; from < keys.length; from += chunk) {
				const part = keys.slice(from, from + chunk);
				const call = async () => await removeProcessed.call(helpers, part, 'node', options);
				await (row === undefined ? call() : inLine(row, [], call));
			}
		},
	};
}

interface Waiting {
	keys: string[];
	call: (keys: string[]) => Promise<unknown>;
	record: boolean;
	resolve: (value: never) => void;
	reject: (error: unknown) => void;
}

// n8n rewrites a row whole, with no lock, so this process's calls on it go one by one; waiting records go as one.
const lines = new Map<string, Waiting[]>();

function inLine<T>(row: string, keys: string[], call: (keys: string[]) => Promise<T>): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const waiting: Waiting = { keys, call, record: keys.length > 0, resolve, reject };
		const line = lines.get(row);
		if (line) return void line.push(waiting);
		lines.set(row, [waiting]);
		void drain(row);
	});
}

async function drain(row: string): Promise<void> {
	const line = lines.get(row) ?? [];
	while (line.length > 0) {
		let size = 1;
		if (line[0].record) while (line[size]?.record) size++;
		const batch = line.splice(0, size);
		try {
			const result = await batch[0].call([...new Set(batch.flatMap((w) => w.keys))]);
			// Each record hears what it would have alone, in its turn: a key an earlier one recorded is there.
			const seen = new Set(result instanceof Set ? (result as Set<string>) : []);
			for (const waiting of batch) {
				waiting.resolve(
					(waiting.record ? new Set(waiting.keys.filter((k) => seen.has(k))) : result) as never,
				);
				for (const key of waiting.keys) seen.add(key);
			}
		} catch (error) {
			for (const waiting of batch) waiting.reject(error);
		}
	}
	lines.delete(row);
}
