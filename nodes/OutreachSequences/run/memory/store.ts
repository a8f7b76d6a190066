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

// Two executions' first insert of a row collide on its unique key, one writing nothing: the one failure safe to repeat.
const RACE_CODES = ['23505', 'ER_DUP_ENTRY', 'SQLITE_CONSTRAINT'];
const RACE_MESSAGE = /UNIQUE constraint failed|duplicate key value violates unique constraint/i;
function isFirstInsertRace(error: unknown): boolean {
	const { code, message, driverError } = (error ?? {}) as Record<string, { code?: unknown }>;
	const codes = [code, driverError?.code].map(String);
	return codes.some((value) => RACE_CODES.includes(value)) || RACE_MESSAGE.test(String(message));
}

export function processedStoreOf(context: IExecuteFunctions): ProcessedStore | undefined {
	const { id } = context.getWorkflow();
	const helpers = context.helpers as StoreHelpers;
	return id ? processedStoreOver(helpers, `${id}|${context.getNode().id}`) : undefined;
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
	let line = row === undefined ? undefined : lines.get(row);
	if (row !== undefined && !line) lines.set(row, (line = { tail: Promise.resolve() }));
	return {
		checkAndRecord: async (keys) =>
			line ? await recordInLine(line, keys, check) : await check(keys),
		async remove(keys) {
			for (let from = 0; from < keys.length; from += chunk) {
				const part = keys.slice(from, from + chunk);
				const call = async () => await removeProcessed.call(helpers, part, 'node', options);
				await (line ? inLine(line, call) : call());
			}
		},
	};
}

// n8n rewrites a row whole, with no lock, so this process's calls on it go one by one; waiting records go as one.
type Line = { tail: Promise<unknown>; open?: { keys: string[][]; there: Promise<Set<string>> } };
const lines = new Map<string, Line>();

function inLine<T>(line: Line, call: () => Promise<T>): Promise<T> {
	const result = line.tail.then(call);
	line.tail = result.catch(() => undefined);
	return result;
}

/** Each record hears what it would have alone, in its turn: a key an earlier one of its batch recorded is there. */
async function recordInLine(line: Line, keys: string[], check: ProcessedStore['checkAndRecord']) {
	const open: NonNullable<Line['open']> = (line.open ??= {
		keys: [],
		there: inLine(line, async () => {
			line.open = undefined;
			return await check([...new Set(open.keys.flat())]);
		}),
	});
	const earlier = new Set(open.keys.flat());
	open.keys.push(keys);
	const there = await open.there;
	return new Set(keys.filter((key) => there.has(key) || earlier.has(key)));
}
