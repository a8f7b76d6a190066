/** The execution hints n8n shows in the output pane after a run: pure functions of its summary. */
import type { NodeExecutionHint } from 'n8n-workflow';

import { MAX_BATCH_SIZE } from '../../helpers/defaults';
import type { Subject } from '../../helpers/interfaces';
import { REPEAT_OPTION, UNCONFIRMED_OPTION } from './reRunTexts';
import type { FailureGroup } from './failedItem';
import type { RunSummary } from './runReport';
import { count, duration, itemList, pick } from './words';

export interface HintSetting {
	retryOnFail: boolean;
	readOnly: boolean;
	subject?: Subject;
	windowMs?: number;
	unconfirmedForAll?: 'sendAgain' | 'countAsDone';
}

// Three lines of n8n's output pane at 1440×900, ~65 characters each (test/e2e/editor.e2e.mts measures).
export const HINT_BUDGET = 190;

/** The first sentence, then each other one that still fits in the budget. */
function hint(type: 'info' | 'warning', ...sentences: Sentence[]): NodeExecutionHint {
	const [first, ...others] = sentences.filter((sentence): sentence is string => !!sentence);
	let message = first;
	for (const sentence of others)
		if (message.length + 1 + sentence.length <= HINT_BUDGET) message += ` ${sentence}`;
	return { type, location: 'outputPane', message };
}

type Sentence = string | false | undefined;
const hintIfAny = (type: 'info' | 'warning', ...sentences: Sentence[]) =>
	sentences.some(Boolean) ? hint(type, ...sentences) : undefined;

const sum = (counts: object) => Object.values(counts).reduce((a: number, b: number) => a + b, 0);
const ended = (summary: RunSummary, group: FailureGroup) =>
	summary.ends.filter((end) => end === group).length;
const them = (value: number) => pick(value, 'it', 'them');
const items = (value: number) => count(value, 'item was', 'items were');

export const RETRY_ON_FAIL_TEXT =
	'Retry On Fail is on: n8n runs this node again with every item, and only items the service refused go out again. The node resends what the service pushed back on by itself.';

const FOR_ALL = {
	countAsDone: 'at Count as Done for every item, a later retry counts every unchecked item as done',
	sendAgain:
		'at Send Again for every item, a later retry sends every unchecked item again, and may carry it out twice',
};

export function failedItemsHint(summary: RunSummary, setting: HintSetting) {
	const failed = summary.ends.flatMap((end, index) => (end ? [index] : []));
	if (failed.length === 0) return undefined;
	const mayHave = failed.filter((index) => summary.ends[index] === 'mayHaveActed');
	const check = mayHave.length > 0 && !setting.readOnly;
	const named = check ? mayHave : failed;
	const list = itemList(named, summary.labels[named[0]]);
	const all = them(failed.length);
	const refused = ended(summary, 'n8nRefused');
	return hint(
		'warning',
		`${failed.length} of ${count(summary.items, 'item')} failed${check ? `; ${list} may have been ${setting.subject?.done ?? 'carried out'}: check before sending ${them(mayHave.length)} again` : `: ${list}`}.`,
		check
			? ''
			: refused > 0
				? `n8n refused ${refused === failed.length ? all : `${refused} of them`} by its settings for where requests may go: an administrator can change them.`
				: `Sending ${all} again is safe: ${setting.readOnly ? 'this operation changes nothing' : `the service did not act on ${all}`}.`,
		'Each error says why, and {{ $json.message.outcome }} its outcome.',
	);
}

// failedAgain items are left to the failed-items hint.
export function earlierTryHint({ earlierTry, keptIds }: RunSummary, windowMs?: number) {
	const { answered = 0, kept = 0, answerLost = 0, countedAsDone = 0, sentAgain = 0 } = earlierTry;
	const { doneBefore = 0 } = earlierTry;
	const done = answered + kept + answerLost;
	const said = [
		countedAsDone > 0 && `${countedAsDone} counted as done`,
		sentAgain > 0 && `${sentAgain} sent again`,
	].filter(Boolean);
	const ids = keptIds.length > 2 ? [...keptIds.slice(0, 2), `${keptIds.length - 2} more`] : keptIds;
	const memory = windowMs !== undefined && doneBefore > 0;
	return hintIfAny(
		'info',
		done + said.length > 0 &&
			`n8n ran this node again${done > 0 ? `: ${items(done)} carried out in an earlier try, not sent again` : ''}.`,
		said.length > 0 && `${said.join(' and ')}, as ${UNCONFIRMED_OPTION} says.`,
		memory &&
			`${items(doneBefore)} not sent again: done within the last ${duration(windowMs)} (the output says "skipped": true).`,
		kept > 0 &&
			`${kept} kept the earlier answer though the settings changed${ids.length > 0 ? ` (${ids.join(', ')})` : ''}.`,
		answerLost > 0 && `${answerLost} had no answer kept: the output says "skipped": true.`,
		memory && `${REPEAT_OPTION} sends ${them(doneBefore)} again.`,
	);
}

/** What slowed the run: the service down or pushing back, passing faults, and the waits. */
export function slowedHint(summary: RunSummary) {
	const { pushBacks, waitedRequests, transientRetried } = summary;
	const down = ended(summary, 'serviceDown') > 0;
	const notSentAgain = sum(summary.notSentAgain);
	const retried = summary.retriedItems - transientRetried;
	const LOOKED_DOWN = 'The outreach service looked down';
	return hintIfAny(
		down ? 'warning' : 'info',
		down
			? `${LOOKED_DOWN}, and a probe after a pause failed too, so the node stopped sending: send what it did not send once the service is back.`
			: summary.breakerOpened > 0 &&
					`${LOOKED_DOWN}, so the node paused and sent one request as a probe: it got an answer, and the run went on.`,
		pushBacks > 0
			? `The outreach service pushed back ${count(pushBacks, 'time')} (HTTP 429, 503 or rate-limit headers).`
			: waitedRequests > 0 &&
					'The outreach service had pushed back before this run, so the node kept to its pace.',
		retried > 0 && `${items(retried)} sent again.`,
		transientRetried > 0 &&
			`${items(transientRetried)} sent again after a passing fault (HTTP 500, 502 or 504, a reset or refused connection, or a timeout).`,
		notSentAgain > 0 &&
			`${items(notSentAgain)} not sent again, as Request Options › Rate Limit Handling says.`,
		waitedRequests > 0 &&
			`${count(waitedRequests, 'request')} waited ${duration(summary.heldBackMs)} in all, at most ${duration(summary.longestWaitMs)}.`,
	);
}

export const FAR_MS = 100;
/** Mean answers within this factor of the quickest did not slow as more went out at once. */
const STEADY = 1.5;

// Only a far service, not a busy one (nor n8n's own work at a near one), goes faster with more at once.
export function limitHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { runMs, fullMs, heldAt, quickestAnswerMs, meanAnswerMs } = summary.limit;
	const held =
		summary.pushBacks === 0 &&
		summary.waitedRequests === 0 &&
		runMs > 0 &&
		fullMs * 2 >= runMs &&
		quickestAnswerMs >= FAR_MS &&
		meanAnswerMs <= quickestAnswerMs * STEADY &&
		heldAt < MAX_BATCH_SIZE;
	if (!held) return undefined;
	return hint(
		'info',
		`Most of this run had as many requests in flight as the node allows (up to ${heldAt}), with no push-back: Request Options › Batching › Limit Fixed and a larger Items per Batch send more at once.`,
	);
}

export function memoryOffHint(): NodeExecutionHint {
	return hint(
		'warning',
		'This workflow is not saved, so the node keeps no memory: running it again sends every item again (Request Options › Skip Items Done Before is off). Save the workflow to turn the memory on.',
	);
}

export function rowFullHint(items: number, most: number, windowMs: number): NodeExecutionHint {
	return hint(
		'warning',
		`This run has ${items.toLocaleString('en-US')} items and the node's memory keeps ${most.toLocaleString('en-US')}: its first items may be forgotten within ${duration(windowMs)} and sent again.`,
		'Split the input, for example with Loop Over Items.',
	);
}

// Keep this order: docs/hints.md lists the hints in it.
export function executionHints(summary: RunSummary, setting: HintSetting): NodeExecutionHint[] {
	const write = !setting.readOnly;
	const forAll = setting.unconfirmedForAll;
	return [
		write && setting.retryOnFail && hint('warning', RETRY_ON_FAIL_TEXT),
		write &&
			forAll &&
			hint(
				'warning',
				`Set ${UNCONFIRMED_OPTION} back to Fail after this retry: ${FOR_ALL[forAll]}.`,
			),
		failedItemsHint(summary, setting),
		earlierTryHint(summary, setting.windowMs),
		slowedHint(summary),
		limitHint(summary),
	].filter((hint): hint is NodeExecutionHint => !!hint);
}
