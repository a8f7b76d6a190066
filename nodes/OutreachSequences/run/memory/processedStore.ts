/**
 * n8n's store for processed items (`helpers.checkProcessedAndRecord` and its
 * kin, behind the Remove Duplicates node), as the journal (journal.ts) and
 * the done keys (doneKeys.ts) use it: the node's own row in n8n's database,
 * a set of keys kept as hashes, with no values and no times, and without a
 * lock. Checking a key records it. Each call reads and writes the whole row,
 * so a call costs the row's length: ROW_MAX_ENTRIES bounds it.
 */

/**
 * The most keys the node's row keeps; n8n drops the oldest past it. One call
 * parses, checks and writes the whole row in n8n's process: about 60–90 ms at
 * 100,000 keys, 190 ms at 250,000 (bench/results.md).
 */
export const ROW_MAX_ENTRIES = 150_000;

/**
 * How many key comparisons one removal may cost n8n: about 50 ms. n8n takes
 * each key out by looking for it in the whole row (`findIndex`), so a call
 * that removes k keys from a row of r costs k × r; the store splits a removal
 * into calls of at most this many (store.ts).
 */
export const REMOVE_COMPARISONS = 5_000_000;

/** The most keys one removal takes out of a row as long as the row may grow: no call costs more than REMOVE_COMPARISONS. */
export const FEW_KEYS = Math.floor(REMOVE_COMPARISONS / ROW_MAX_ENTRIES);

/** What a one-step clear did: cleared the row, or found it holding `length` keys (where n8n tells). */
export interface Clearing {
	cleared: boolean;
	length?: number;
}

export interface ProcessedStore {
	/** Records every key; returns those that were there already. */
	checkAndRecord(keys: string[]): Promise<Set<string>>;
	/**
	 * Takes the keys out again. n8n looks for each key in the whole row, so
	 * the keys go in calls that each cost n8n at most REMOVE_COMPARISONS at a
	 * row of `rowLength` (by default the most the row keeps).
	 */
	remove(keys: string[], rowLength?: number): Promise<void>;
	/** How many keys the row holds; undefined where n8n has no such helper. */
	count?(): Promise<number | undefined>;
	/**
	 * Takes the whole row out in one step when it holds `count` keys, that is
	 * only the caller's own; says whether it did, and otherwise how long the
	 * row is. Where n8n has no such helper, it does nothing and says no.
	 */
	clearIfOnly?(count: number): Promise<Clearing>;
}
