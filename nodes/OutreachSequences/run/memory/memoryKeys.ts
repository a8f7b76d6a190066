/**
 * The done keys of one run (memory/doneKeys.ts), opened from n8n for the
 * node's memory (memory.ts): each item's key, the claim at the start, and
 * each key's outcome at the end. Where the keys can't be kept (no store, too
 * many keys, the store failed), every item fails unsent: the option is never
 * dropped silently.
 */
import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ItemState } from '../loop/loop';
import type { KeyOutcome, KeyVerdict } from './doneKeys';
import { DONE_KEYS_MAX_ENTRIES, DoneKeys, MAX_RUN_KEYS } from './doneKeys';
import { failureFacts } from '../outcome/failedItem';
import type { PriorEvent } from './reRun';
import { keysPushedOutHint } from '../outcome/reRunHints';
import { keyStoreFailedText, noKeyStoreText, tooManyKeysText } from '../outcome/reRunTexts';
import { keySettingsOf } from './memoryParts';
import { processedStoreOf } from './store';

export interface RunKeys {
	settings: NonNullable<ReturnType<typeof keySettingsOf>>;
	/** Each item's key; undefined where it is empty. */
	keys: Array<string | undefined>;
	verdicts: Map<string, KeyVerdict>;
	doneKeys?: DoneKeys;
	/** Why no item is sent, when the keys can't be kept. */
	problem?: string;
	/** A warning for the output pane: this run pushes earlier runs' keys out of the row. */
	hint?: NodeExecutionHint;
}

const messageOf = (error: unknown) => (error as Error)?.message ?? String(error);

/**
 * How many keys are worked out before n8n's event loop gets a turn. Each key
 * is an expression n8n evaluates, about half a millisecond: 50,000 in one
 * pass held n8n's main process for 25 to 35 s (bench/results.md).
 */
export const KEYS_BETWEEN_TURNS = 32;

/** Each item's key, `count` of them, with a turn for n8n's event loop every KEYS_BETWEEN_TURNS. */
export async function keysOf(
	count: number,
	keyOf: (index: number) => string | undefined,
	turn: () => Promise<void> = async () => await sleep(0),
): Promise<Array<string | undefined>> {
	const keys: Array<string | undefined> = [];
	for (let index = 0; index < count; index++) {
		if (index > 0 && index % KEYS_BETWEEN_TURNS === 0) await turn();
		keys.push(keyOf(index));
	}
	return keys;
}

/**
 * Request Options › Skip Items Done Before for this run, its keys claimed;
 * undefined when its Key is empty. `meanwhile`: what the run does while the
 * claim settles (SETTLE_MS), by default nothing.
 */
export async function openKeys(
	context: IExecuteFunctions,
	scope: string,
	tag: string,
	warn: (what: string) => (error: unknown) => void,
	meanwhile: (ms: number) => Promise<void> = sleep,
): Promise<RunKeys | undefined> {
	const settings = keySettingsOf(context, context.getNode());
	if (!settings) return undefined;
	const keys = await keysOf(context.getInputData().length, (index) => settings.keyOf(index));
	const run: RunKeys = { settings, keys, verdicts: new Map() };
	const distinct = [...new Set(keys.filter((key): key is string => key !== undefined))];
	const store = processedStoreOf(context);
	if (!store) return { ...run, problem: noKeyStoreText() };
	if (distinct.length > MAX_RUN_KEYS)
		return { ...run, problem: tooManyKeysText(distinct.length, MAX_RUN_KEYS) };
	if (distinct.length === 0) return run;
	try {
		const before = await store.count?.();
		const failed = warn(
			'the keys this run confirmed may not be kept as done: the next execution fails them as unknown.',
		);
		const doneKeys = await DoneKeys.claim(
			store,
			distinct,
			{ scope, windowMs: settings.windowMs, tag, now: Date.now, sleep: meanwhile },
			before ?? DONE_KEYS_MAX_ENTRIES,
			failed,
		);
		const adds = doneKeys.claim.added + doneKeys.claim.held.size;
		const pushedOut =
			before === undefined
				? undefined
				: keysPushedOutHint(before, adds, DONE_KEYS_MAX_ENTRIES, MAX_RUN_KEYS);
		return { ...run, doneKeys, verdicts: doneKeys.claim.verdicts, hint: pushedOut };
	} catch (error) {
		warn('no item of this run was sent.')(error);
		return { ...run, problem: keyStoreFailedText(messageOf(error)) };
	}
}

/**
 * What came of item `index`'s key: confirmed (done, or carried out in an
 * earlier try), sent without a confirmation, or given back (nothing acted);
 * undefined for an item its key skipped or failed unsent (another run has it).
 */
export function keyOutcomeOf(
	item: ItemState,
	keyEvent: PriorEvent | undefined,
): KeyOutcome | undefined {
	if (keyEvent === 'keyDoneBefore' || keyEvent === 'failedAgain') return undefined;
	if (item.state === 'done') return 'confirmed';
	if (item.state !== 'failed') return 'sends' in item && item.sends > 0 ? 'unknown' : 'givenBack';
	const { failure } = item;
	if (failure.kind === 'unknownBefore') return 'unknown';
	const facts = failureFacts(failure);
	return facts.outcome === 'mayHaveActed' && facts.timesSent > 0 ? 'unknown' : 'givenBack';
}
