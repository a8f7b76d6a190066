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

export interface ProcessedStore {
	/** Records every key; returns those that were there already. */
	checkAndRecord(keys: string[]): Promise<Set<string>>;
	/** Takes the keys out again: n8n looks for each key in the whole row, so this costs the row's length per key. */
	remove(keys: string[]): Promise<void>;
	/** How many keys the row holds; undefined where n8n has no such helper. */
	count?(): Promise<number | undefined>;
	/**
	 * Takes the whole row out in one step when it holds `count` keys, that is
	 * only the caller's own; says whether it did. Where n8n has no such
	 * helper, it does nothing and says no.
	 */
	clearIfOnly?(count: number): Promise<boolean>;
}
