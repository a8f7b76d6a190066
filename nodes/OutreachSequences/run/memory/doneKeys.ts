/**
 * The done keys (Request Options › Skip Items Done Before): a key the user
 * chooses for each item. A run claims its keys at its start
 * (doneKeyClaim.ts, where the entries are named); an item whose key was done
 * within the Window is not sent, nor is one that another run met in this
 * bucket and has not confirmed (its outcome is unknown, or that run is
 * sending it now). Then, for the keys this run holds:
 * - confirmed (the service answered 2xx, or the user counted it as done):
 *   D is written as the run goes, at most about once a second (FLUSH_MS),
 *   so that it also serves a crashed run's retry, and the rest at the end;
 * - sent without a confirmation (outcome mayHaveActed): its claim stays,
 *   and C of the next bucket is written, so that it stays unknown into it;
 * - given back (refused, or never sent): its claim and the D_{b-1} the claim
 *   wrote are taken out. That is the only removal of many entries, and n8n
 *   takes each out at the cost of the row's length (keys × row): it goes in
 *   calls that each cost n8n about 50 ms (ProcessedStore.remove).
 * A run that goes on into the last REFRESH_LEAD_MS of its bucket writes C of
 * the next bucket for the keys it has not settled, so that its claims do not
 * lapse; those keys then cost up to 2 entries more (C and D of that bucket).
 *
 * Entries: a confirmed key costs at most 3 in its first run of a bucket
 * (D_{b-1}, C_b, D_b), none in a later run of the same bucket, and a run
 * with more than MAX_RUN_KEYS keys is refused before anything is sent
 * (memory.ts): the row holds DONE_KEYS_MAX_ENTRIES, and n8n reads and writes
 * all of it at each call, in its main process.
 */
import type { Claim, DoneKeySettings } from './doneKeyClaim';
import { bucketOf, claimEntry, claimKeys, doneEntry } from './doneKeyClaim';
import type { ProcessedStore } from './processedStore';
import { ROW_MAX_ENTRIES } from './processedStore';

export type { DoneKeySettings, KeyVerdict } from './doneKeyClaim';
export { SETTLE_MS } from './doneKeyClaim';

/** The most entries n8n's store keeps in the node's row, for its keys; the oldest are dropped first. */
export const DONE_KEYS_MAX_ENTRIES = ROW_MAX_ENTRIES;
/** The most entries one key costs: D_{b-1}, C_b and D_b. */
export const ENTRIES_PER_KEY = 3;
/** The most distinct keys one run may have. */
export const MAX_RUN_KEYS = DONE_KEYS_MAX_ENTRIES / ENTRIES_PER_KEY;
/** A run still going this long before its bucket ends claims the next one for its unsettled keys (at most half a Window). */
export const REFRESH_LEAD_MS = 5 * 60_000;
/** Confirmed keys are written at most this often while a run goes. */
export const FLUSH_MS = 1000;

/** What came of a key in this run: confirmed, sent without a confirmation, or given back. */
export type KeyOutcome = 'confirmed' | 'unknown' | 'givenBack';

const RANK: Record<KeyOutcome, number> = { givenBack: 0, unknown: 1, confirmed: 2 };

/** Each key's outcome, from its items': confirmed wins over unknown, which wins over given back. */
export function keyOutcomes(
	keys: Array<string | undefined>,
	outcomeOf: (index: number) => KeyOutcome | undefined,
): Map<string, KeyOutcome> {
	const outcomes = new Map<string, KeyOutcome>();
	keys.forEach((key, index) => {
		const outcome = key === undefined ? undefined : outcomeOf(index);
		if (key === undefined || outcome === undefined) return;
		const was = outcomes.get(key);
		if (was === undefined || RANK[outcome] > RANK[was]) outcomes.set(key, outcome);
	});
	return outcomes;
}

export class DoneKeys {
	/** Keys confirmed and not yet written, and those written. */
	private readonly pending = new Set<string>();
	private readonly written = new Set<string>();
	/** The last bucket for which this run wrote C of its unsettled keys. */
	private claimedTo: number;
	private lastWriteAt = -Infinity;
	private lastWriteMs = 0;
	private queue: Promise<void> = Promise.resolve();
	private broken = false;

	private constructor(
		private readonly store: ProcessedStore,
		private readonly settings: DoneKeySettings,
		readonly claim: Claim,
		private rowLength: number,
		private readonly failed: (error: unknown) => void,
	) {
		this.claimedTo = claim.bucket;
	}

	/** Claims the distinct `keys` at the start of a run (doneKeyClaim.ts); `rowLength`: the row's length now. */
	static async claim(
		store: ProcessedStore,
		keys: string[],
		settings: DoneKeySettings,
		rowLength: number,
		failed: (error: unknown) => void,
	): Promise<DoneKeys> {
		const claim = await claimKeys(store, keys, settings, rowLength);
		return new DoneKeys(store, settings, claim, rowLength + claim.added, failed);
	}

	/** The service confirmed an item with `key`: written with the next write, at most about once a second. */
	confirmed(key: string): void {
		if (this.written.has(key)) return;
		this.pending.add(key);
		this.tick();
	}

	/** As the run goes: writes what is confirmed, and claims the next bucket before this one ends. */
	tick(): void {
		if (this.broken) return;
		const now = this.settings.now();
		const bucket = bucketOf(this.settings, now);
		const { windowMs } = this.settings;
		const ahead = (bucket + 1) * windowMs - now <= Math.min(REFRESH_LEAD_MS, windowMs / 2);
		const to = ahead ? bucket + 1 : bucket;
		const unsettled = to > this.claimedTo ? this.unsettled() : [];
		if (unsettled.length > 0) {
			const claims: string[] = [];
			for (let at = this.claimedTo + 1; at <= to; at++)
				claims.push(...unsettled.map((key) => claimEntry(this.settings, at, key)));
			this.claimedTo = to;
			this.write([...this.doneEntries([...this.pending.keys()]), ...claims]);
			return;
		}
		const every = Math.max(FLUSH_MS, 10 * this.lastWriteMs);
		if (this.pending.size > 0 && now - this.lastWriteAt >= every)
			this.write(this.doneEntries([...this.pending.keys()]));
	}

	/** Held keys neither confirmed nor written. */
	private unsettled(): string[] {
		return [...this.claim.held].filter((key) => !this.pending.has(key) && !this.written.has(key));
	}

	/**
	 * D of the bucket now for `keys`, which then count as written; D of the
	 * bucket before too when this run claimed in an earlier one (a later run
	 * in this bucket that finds no C reads that), and of the buckets ahead
	 * that it claimed already.
	 */
	private doneEntries(keys: string[]): string[] {
		const bucket = bucketOf(this.settings);
		const from = this.claim.bucket < bucket ? bucket - 1 : bucket;
		const to = Math.max(bucket, this.claimedTo);
		const entries: string[] = [];
		for (const key of keys) {
			this.pending.delete(key);
			this.written.add(key);
			for (let at = from; at <= to; at++) entries.push(doneEntry(this.settings, at, key));
		}
		return entries;
	}

	/** Writes one at a time, in order: n8n's store reads and writes a whole row, with no lock. */
	private write(entries: string[]): void {
		this.lastWriteAt = this.settings.now();
		this.queue = this.queue.then(async () => {
			if (this.broken || entries.length === 0) return;
			const started = this.settings.now();
			try {
				const there = await this.store.checkAndRecord(entries);
				this.rowLength += entries.length - there.size;
			} catch (error) {
				this.broken = true;
				this.failed(error);
			}
			this.lastWriteMs = this.settings.now() - started;
		});
	}

	/**
	 * The run ended: each key's outcome (keyOutcomes). Confirmed keys not yet
	 * written are; unknown ones get C of this bucket and the next; the keys this run
	 * held and gave back go (in chunks, keys × row). Throws when the store does.
	 */
	async settle(outcomes: Map<string, KeyOutcome>): Promise<void> {
		await this.queue;
		const bucket = bucketOf(this.settings);
		const confirmed: string[] = [];
		const unknown: string[] = [];
		const givenBack: string[] = [];
		for (const [key, outcome] of outcomes) {
			if (outcome === 'confirmed' && !this.written.has(key)) confirmed.push(key);
			else if (outcome === 'unknown')
				unknown.push(
					claimEntry(this.settings, bucket, key),
					claimEntry(this.settings, bucket + 1, key),
				);
			else if (outcome === 'givenBack' && this.claim.held.has(key)) givenBack.push(key);
		}
		const writes = [...this.doneEntries(confirmed), ...unknown];
		if (writes.length > 0) await this.store.checkAndRecord(writes);
		if (givenBack.length === 0) return;
		// Each C_x of theirs still read (this bucket on), and D_{x-1}, which the claim, or a run that met
		// the key in bucket x, wrote by looking: with C_x gone, a later run would read it as done.
		const live = givenBack.flatMap((key) => {
			const entries: string[] = [];
			for (let at = Math.max(bucket, this.claim.bucket); at <= this.claimedTo; at++)
				entries.push(claimEntry(this.settings, at, key), doneEntry(this.settings, at - 1, key));
			return entries;
		});
		await this.store.remove(live, (await this.store.count?.()) ?? this.rowLength);
	}
}
