/**
 * The line of calls on one row of n8n's store, in this n8n process. n8n
 * reads a row and writes it back whole, with no lock: two executions that
 * write the node's row at once lose one's keys. So the calls on a row go one
 * after another, every execution's. Each call reads and writes the whole row,
 * so calls of one kind that wait together go as one: the records waiting
 * behind a call are made in one call with all their keys, and so are the
 * removals. 100 executions that each mark an item make two calls, not 100.
 * A removal costs n8n its keys times the row's length, so removals go
 * together only up to the keys the first of them may take out in one call.
 */

/** How a call waiting in line goes: with others of its kind, or alone. */
type Kind = 'record' | 'remove' | 'alone';

interface Waiting {
	kind: Kind;
	keys: string[];
	/** The most keys one call of this kind may carry. */
	limit: number;
	/** n8n's call, with these keys (or, for a batch, every waiting call's). */
	call: (keys: string[]) => Promise<unknown>;
	resolve: (value: unknown) => void;
	reject: (error: unknown) => void;
}

/** The calls waiting on each row; a row is in the map while its line drains. */
const lines = new Map<string, Waiting[]>();

function join(
	row: string,
	kind: Kind,
	keys: string[],
	call: Waiting['call'],
	limit = Infinity,
): Promise<unknown> {
	return new Promise((resolve, reject) => {
		const line = lines.get(row);
		const waiting = { kind, keys, limit, call, resolve, reject };
		if (line) return void line.push(waiting);
		lines.set(row, [waiting]);
		void drain(row);
	});
}

/** Runs the row's calls in order; calls of one kind next to each other go as one. */
async function drain(row: string): Promise<void> {
	const line = lines.get(row) ?? [];
	while (line.length > 0) {
		const [first] = line;
		let size = 1;
		let carried = first.keys.length;
		if (first.kind !== 'alone')
			while (line[size]?.kind === first.kind && carried + line[size].keys.length <= first.limit)
				carried += line[size++].keys.length;
		const batch = line.splice(0, size);
		try {
			const keys = batch.length === 1 ? first.keys : [...new Set(batch.flatMap((w) => w.keys))];
			const result = await first.call(keys);
			if (first.kind === 'record') answerRecords(batch, result as Set<string>);
			else for (const waiting of batch) waiting.resolve(result);
		} catch (error) {
			for (const waiting of batch) waiting.reject(error);
		}
	}
	lines.delete(row);
}

/** Each record's answer is what it would have been alone, in its turn: a key an earlier one recorded is there. */
function answerRecords(batch: Waiting[], there: Set<string>): void {
	const seen = new Set(there);
	for (const waiting of batch) {
		waiting.resolve(new Set(waiting.keys.filter((key) => seen.has(key))));
		for (const key of waiting.keys) seen.add(key);
	}
}

/** Records `keys` in the row, in its line: the keys that were there already. */
export function recordInLine(
	row: string | undefined,
	keys: string[],
	call: (keys: string[]) => Promise<Set<string>>,
): Promise<Set<string>> {
	if (row === undefined) return call(keys);
	return join(row, 'record', keys, call) as Promise<Set<string>>;
}

/** Takes `keys` out of the row, in its line, with removals waiting beside it up to `limit` keys in all. */
export function removeInLine(
	row: string | undefined,
	keys: string[],
	call: (keys: string[]) => Promise<void>,
	limit: number,
): Promise<void> {
	if (row === undefined) return call(keys);
	return join(row, 'remove', keys, call, limit) as Promise<void>;
}

/** Any other call on the row, alone in its turn. */
export function aloneInLine<T>(row: string | undefined, call: () => Promise<T>): Promise<T> {
	if (row === undefined) return call();
	return join(row, 'alone', [], call) as Promise<T>;
}
