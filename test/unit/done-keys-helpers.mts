// What the done keys' unit tests share: n8n's store for processed items as
// n8n keeps it (harness/node-store.mts), a virtual clock, and a run's claim,
// confirmations and end, as memory.ts drives them.
import {
	DoneKeys,
	DONE_KEYS_MAX_ENTRIES,
} from '../../nodes/OutreachSequences/run/memory/doneKeys.ts';
import type {
	DoneKeySettings,
	KeyOutcome,
} from '../../nodes/OutreachSequences/run/memory/doneKeys.ts';
import { NODE_ROW, nodeStore } from '../harness/node-store.mts';
import { VirtualClock } from '../harness/virtual-clock.mts';

export const DAY = 24 * 60 * 60_000;
export const SCOPE = 'sequence.create';

export type World = ReturnType<typeof world>;

/** An empty store keeping `maxEntries` for the node, and a clock a minute into a day's bucket. */
export function world(maxEntries = DONE_KEYS_MAX_ENTRIES) {
	const { store, rows } = nodeStore(maxEntries);
	const clock = new VirtualClock();
	clock.now = 10 * DAY + 60_000;
	const failures: unknown[] = [];
	return { store, rows, clock, failures, row: () => rows.keysOf(NODE_ROW) };
}

export function settingsOf(
	w: World,
	tag: string,
	windowMs = DAY,
	sleep = w.clock.sleep,
): DoneKeySettings {
	return { scope: SCOPE, windowMs, tag, now: () => w.clock.now, sleep };
}

/** A run's claim of `keys`. */
export async function claim(w: World, keys: string[], tag = 'run-1', windowMs = DAY) {
	return await claimWith(w, keys, settingsOf(w, tag, windowMs));
}

export async function claimWith(w: World, keys: string[], settings: DoneKeySettings) {
	const length = (await w.store.count?.()) ?? 0;
	const failed = (error: unknown) => w.failures.push(error);
	return await w.clock.run(DoneKeys.claim(w.store, [...new Set(keys)], settings, length, failed));
}

/** Each key's verdict, in order. */
export const verdicts = (run: DoneKeys, keys: string[]) =>
	keys.map((key) => run.claim.verdicts.get(key));

/** The run ends with these outcomes. */
export async function settle(w: World, run: DoneKeys, outcomes: Record<string, KeyOutcome>) {
	await w.clock.run(run.settle(new Map(Object.entries(outcomes))));
}

/** A run of `keys` that confirms them all, start to end. */
export async function confirmAll(w: World, keys: string[], tag: string, windowMs = DAY) {
	const run = await claim(w, keys, tag, windowMs);
	await settle(w, run, Object.fromEntries(keys.map((key) => [key, 'confirmed'])));
	return run;
}

/** The store's calls of one kind since `from`. */
export const callsOf = (w: World, call: 'check' | 'remove', from = 0) =>
	w.rows.calls.slice(from).filter((entry) => entry.call === call);
