/**
 * How the done keys (doneKeys.ts) name their entries in n8n's store, and how
 * a run claims its keys there once, at its start.
 *
 * Time is cut into buckets one Window long: b = floor(now / Window). For a
 * key K, "claim:…:b:K" (C_b) says that a run met K in bucket b, and
 * "done:…:b:K" (D_b) that K was done as of bucket b. The Window is part of
 * every entry: a changed Window starts buckets of its own, and knows no key
 * done under the old one.
 *
 * The claim is one write of D_{b-1} and C_b for every key, and a tag; after
 * SETTLE_MS, one more write checks that the tag stood (no write made from an
 * older read of the row replaced the claim), writes D_b for the keys done in
 * the bucket before (so that later runs in this bucket find them), and looks
 * up D_b for the keys another run had met in this bucket. Checking an entry
 * records it, so:
 * - D_{b-1} is read only by the first run that meets K in bucket b (after
 *   it, C_b is there); the D_{b-1} such a look-up wrote is never read again,
 *   unless C_b is taken out, and then D_{b-1} goes with it (doneKeys.ts).
 *   D_{b-1} comes before C_b in the write, so that when n8n trims the row
 *   from its oldest entry, D_{b-1} goes first.
 * - A D_b look-up that found nothing wrote D_b, which would read as done: it
 *   is taken out at once (remove, which costs n8n the row's length per key).
 *   Between that write and its removal, a third run could read it as done:
 *   it would skip the item, never send it twice.
 */
import type { ProcessedStore } from './processedStore';

/** How long an execution waits before it checks that its claim stood. */
export const SETTLE_MS = 1000;
/** How often a claim that another write replaced is made again, before its items are not sent. */
export const MAX_CLAIM_ROUNDS = 3;

/** What becomes of an item's key: send it, it was done before, or its outcome is unknown (another run met it and has not confirmed it). */
export type KeyVerdict = 'send' | 'doneBefore' | 'unknownBefore';

export interface DoneKeySettings {
	/** What the keys of this node, operation, Base URL and credential share. */
	scope: string;
	windowMs: number;
	/** This run, and no other: an execution, a node, a run index. */
	tag: string;
	now(): number;
	sleep(ms: number): Promise<void>;
}

/** The bucket of `at` (now by default). */
export function bucketOf(settings: DoneKeySettings, at = settings.now()): number {
	return Math.floor(at / settings.windowMs);
}

/** C_bucket(key): a run met the key in that bucket. */
export function claimEntry(settings: DoneKeySettings, bucket: number, key: string): string {
	return `claim:${settings.scope}:${settings.windowMs}:${bucket}:${key}`;
}

/** D_bucket(key): the key was done as of that bucket. */
export function doneEntry(settings: DoneKeySettings, bucket: number, key: string): string {
	return `done:${settings.scope}:${settings.windowMs}:${bucket}:${key}`;
}

/** What the claim found and wrote. */
export interface Claim {
	bucket: number;
	verdicts: Map<string, KeyVerdict>;
	/** The keys this run claimed: nobody met them in this bucket, nor were they done in the one before. */
	held: Set<string>;
	/** How many entries the claim added to the row. */
	added: number;
}

/** Claims `keys` (distinct) in this bucket; `rowLength`: about how long the row is, to size removals. */
export async function claimKeys(
	store: ProcessedStore,
	keys: string[],
	settings: DoneKeySettings,
	rowLength: number,
): Promise<Claim> {
	const bucket = bucketOf(settings);
	const claim: Claim = { bucket, verdicts: new Map(), held: new Set(), added: 0 };
	const before = (key: string) => doneEntry(settings, bucket - 1, key);
	const met = (key: string) => claimEntry(settings, bucket, key);
	const done = (key: string) => doneEntry(settings, bucket, key);
	let claiming = keys;
	for (let round = 0; claiming.length > 0 && round < MAX_CLAIM_ROUNDS; round++) {
		const tag = `tag:${settings.tag}:${round}`;
		const entries = [...claiming.map(before), ...claiming.map(met), tag];
		const there = await store.checkAndRecord(entries);
		const others = claiming.filter((key) => there.has(met(key)));
		const carried = claiming.filter((key) => !there.has(met(key)) && there.has(before(key)));
		const mine = claiming.filter((key) => !there.has(met(key)) && !there.has(before(key)));
		await settings.sleep(SETTLE_MS);
		const seen = await store.checkAndRecord([tag, ...carried.map(done), ...others.map(done)]);
		for (const key of carried) claim.verdicts.set(key, 'doneBefore');
		const forged: string[] = [];
		for (const key of others) {
			const found = seen.has(done(key));
			claim.verdicts.set(key, found ? 'doneBefore' : 'unknownBefore');
			if (!found) forged.push(done(key));
		}
		if (forged.length > 0) await store.remove(forged, rowLength);
		const stood = seen.has(tag);
		if (stood) {
			// The tag is still there: no write made from an older read replaced this round's claim.
			claim.added += entries.filter((entry) => !there.has(entry)).length;
			claim.added += carried.filter((key) => !seen.has(done(key))).length;
			for (const key of mine) {
				claim.held.add(key);
				claim.verdicts.set(key, 'send');
			}
		}
		claiming = stood ? [] : mine;
	}
	// Claimed again and again, and replaced each time: other runs write the row now; do not send.
	for (const key of claiming) claim.verdicts.set(key, 'unknownBefore');
	return claim;
}
