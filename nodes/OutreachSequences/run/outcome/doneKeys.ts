/**
 * The done keys (Request Options › Skip Items Done Before): a key the user
 * chooses for each item. Once the service confirms an item's create or
 * archive, its key is kept in n8n's store (processedStore.ts) for a window,
 * and an execution of this node that meets the key again within it does not
 * send the item. A key counts only once the service confirms it: a key the
 * service refused is taken back, so the next execution sends it; a key the
 * service may have carried out (a timeout, HTTP 5xx) is marked unknown, and
 * the next execution does not send it without the user's say (reRun.ts).
 *
 * The store has no lock, and checking a key records it. So an execution
 * first claims its keys, with a tag of its own; after SETTLE_MS it checks
 * that its tag is still there, that is, that no other execution's write of
 * the same row replaced its claim. Only the holder of a key's claim looks
 * for the key's done mark, so nobody else reads a mark that checking it
 * wrote. A key whose claim another execution holds is not sent ('busy').
 */
import type { ProcessedStore } from './processedStore';

/** How long an execution waits before it checks that its claims stood. */
export const SETTLE_MS = 1000;
/** Claims are kept in buckets of this length: one left by a crashed run lapses within twice it. */
export const CLAIM_BUCKET_MS = 5 * 60_000;
/** How often a claim that another write replaced is made again, before its items are not sent. */
export const MAX_CLAIM_ROUNDS = 3;
/** The most entries n8n's store keeps for one node's keys; the oldest are dropped first. */
export const DONE_KEYS_MAX_ENTRIES = 20_000;

/** What becomes of an item's key: send the item, it was done before, its outcome is unknown, or another execution is sending it. */
export type KeyVerdict = 'send' | 'doneBefore' | 'unknownBefore' | 'busy';

export interface DoneKeySettings {
	/** What the keys of this node, operation, Base URL and credential share. */
	scope: string;
	windowMs: number;
	/** This run, and no other: an execution, a node, a run index. */
	tag: string;
	now(): number;
	sleep(ms: number): Promise<void>;
}

export class DoneKeys {
	/** Keys this run put in the store and takes out at the end: its claims and tags. */
	private readonly ours = new Set<string>();

	private constructor(
		private readonly store: ProcessedStore,
		private readonly settings: DoneKeySettings,
	) {}

	/** Claims `keys` (one per item, none for an item that is not to be sent): each item's verdict. */
	static async claim(
		store: ProcessedStore,
		keys: Array<string | undefined>,
		settings: DoneKeySettings,
	): Promise<{ doneKeys: DoneKeys; verdicts: Array<KeyVerdict | undefined> }> {
		const doneKeys = new DoneKeys(store, settings);
		const unique = [...new Set(keys.filter((key): key is string => key !== undefined))];
		const held = await doneKeys.hold(unique);
		const before = await doneKeys.marked([...held]);
		const verdictOf = (key: string): KeyVerdict =>
			!held.has(key) ? 'busy' : (before.get(key) ?? 'send');
		return {
			doneKeys,
			verdicts: keys.map((key) => (key === undefined ? undefined : verdictOf(key))),
		};
	}

	private claimsOf(key: string): string[] {
		const bucket = Math.floor(this.settings.now() / CLAIM_BUCKET_MS);
		return [bucket, bucket - 1].map((at) => `claim:${this.settings.scope}:${at}:${key}`);
	}

	private marksOf(kind: 'done' | 'unknown', key: string): string[] {
		const bucket = Math.floor(this.settings.now() / this.settings.windowMs);
		return [bucket, bucket - 1].map((at) => `${kind}:${this.settings.scope}:${at}:${key}`);
	}

	/** Records `keys` and notes those that were new as ours; returns those that were there. */
	private async record(keys: string[]): Promise<Set<string>> {
		const there = await this.store.checkAndRecord(keys);
		for (const key of keys) if (!there.has(key)) this.ours.add(key);
		return there;
	}

	/** The keys whose claim this run holds once its writes have stood. */
	private async hold(keys: string[]): Promise<Set<string>> {
		const held = new Set<string>();
		let claiming = keys;
		for (let round = 0; claiming.length > 0 && round < MAX_CLAIM_ROUNDS; round++) {
			const tag = `tag:${this.settings.tag}:${round}`;
			const claims = new Map(claiming.map((key) => [key, this.claimsOf(key)]));
			const there = await this.record([...[...claims.values()].flat(), tag]);
			const mine = claiming.filter((key) => !claims.get(key)?.some((claim) => there.has(claim)));
			if (mine.length === 0) return held;
			await this.settings.sleep(SETTLE_MS);
			// The tag is still there: no write made from an older read replaced this round's claims.
			if ((await this.record([tag])).has(tag)) {
				for (const key of mine) held.add(key);
				return held;
			}
			claiming = mine;
		}
		return held;
	}

	/** Of the keys this run holds, those marked done, or unknown, within the window; done wins. */
	private async marked(keys: string[]): Promise<Map<string, 'doneBefore' | 'unknownBefore'>> {
		const found = new Map<string, 'doneBefore' | 'unknownBefore'>();
		if (keys.length === 0) return found;
		const all = keys.flatMap((key) => [
			...this.marksOf('done', key),
			...this.marksOf('unknown', key),
		]);
		const there = await this.store.checkAndRecord(all);
		const fresh = all.filter((mark) => !there.has(mark));
		// Checking wrote the marks it did not find; only a holder of the claim reads them.
		if (fresh.length > 0) await this.store.remove(fresh);
		for (const key of keys) {
			if (this.marksOf('done', key).some((mark) => there.has(mark))) found.set(key, 'doneBefore');
			else if (this.marksOf('unknown', key).some((mark) => there.has(mark)))
				found.set(key, 'unknownBefore');
		}
		return found;
	}

	/**
	 * The run ended: the keys of the items the service confirmed (or the user
	 * counted as done) are marked done, those it may have carried out unknown;
	 * claims and tags go.
	 */
	async settle(confirmed: string[], unknown: string[] = []): Promise<void> {
		const done = [...new Set(confirmed)].map((key) => this.marksOf('done', key)[0]);
		const open = [...new Set(unknown)].map((key) => this.marksOf('unknown', key)[0]);
		if (done.length + open.length > 0) await this.store.checkAndRecord([...done, ...open]);
		if (this.ours.size > 0) await this.store.remove([...this.ours]);
		this.ours.clear();
	}
}
