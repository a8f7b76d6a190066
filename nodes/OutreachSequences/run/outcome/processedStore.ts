/**
 * n8n's store for processed items (`helpers.checkProcessedAndRecord` and its
 * kin, behind the Remove Duplicates node), as the journal (journal.ts) and
 * the done keys (doneKeys.ts) use it: a set of keys in n8n's database, one
 * per workflow and scope, kept as hashes, with no values and no times, and
 * without a lock. Checking a key records it.
 */
export interface ProcessedStore {
	/** Records every key; returns those that were there already. */
	checkAndRecord(keys: string[]): Promise<Set<string>>;
	/** Takes the keys out again: n8n looks for each key in the whole row, so this costs the row's length per key. */
	remove(keys: string[]): Promise<void>;
	/**
	 * Takes the whole row out in one step when it holds `count` keys, that is
	 * only the caller's own; says whether it did. Where n8n has no such
	 * helper, it does nothing and says no.
	 */
	clearIfOnly?(count: number): Promise<boolean>;
	/** How many keys the row holds; where n8n has no such helper, undefined. */
	count?(): Promise<number | undefined>;
}
