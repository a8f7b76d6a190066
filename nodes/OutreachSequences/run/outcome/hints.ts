/** The execution hints n8n shows in the output pane after a run: pure functions of its summary. */
import type { NodeExecutionHint } from 'n8n-workflow';

import { MAX_BATCH_SIZE } from '../../helpers/defaults';
import type { Subject } from '../../helpers/interfaces';
import { REPEAT_OPTION, span, UNCONFIRMED_OPTION } from './reRunTexts';
import type { RunSummary } from './runReport';
import { capitalize, count, duration, fitted, namedItems, them, was } from './words';

export interface HintSetting {
	retryOnFail: boolean;
	readOnly: boolean;
	subject?: Subject;
	windowMs?: number;
	unconfirmedForAll?: 'sendAgain' | 'countAsDone';
}

const OUTCOME = '{{ $json.message.outcome }}';

const hint = (message: string, type: 'info' | 'warning' = 'info'): NodeExecutionHint => ({
	type,
	location: 'outputPane',
	message,
});

const items = (value: number) => count(value, 'item was', 'items were');

export const RETRY_ON_FAIL_TEXT =
	'Retry On Fail is on: n8n runs this node again with every item, and only items the service refused go out again. The node resends what the service pushed back on by itself.';

export function retryOnFailHint(setting: HintSetting): NodeExecutionHint | undefined {
	return setting.retryOnFail && !setting.readOnly ? hint(RETRY_ON_FAIL_TEXT, 'warning') : undefined;
}

export function unconfirmedForAllHint(
	setting: Pick<HintSetting, 'readOnly' | 'unconfirmedForAll'>,
): NodeExecutionHint | undefined {
	const said = setting.unconfirmedForAll;
	if (said === undefined || setting.readOnly) return undefined;
	const what =
		said === 'countAsDone'
			? 'at Count as Done for every item, a later retry counts every unchecked item as done'
			: 'at Send Again for every item, a later retry sends every unchecked item again, and may carry it out twice';
	return hint(`Set ${UNCONFIRMED_OPTION} back to Fail after this retry: ${what}.`, 'warning');
}

export function failedItemsHint(
	summary: RunSummary,
	setting: HintSetting,
): NodeExecutionHint | undefined {
	const failed = Object.values(summary.failed).reduce((sum, value) => sum + value, 0);
	if (failed === 0) return undefined;
	const { mayHave, notActed, labels } = summary.failedItems;
	const tally = `${failed} of ${count(summary.items, 'item', 'items')} failed`;
	if (mayHave.length > 0 && !setting.readOnly) {
		const done = setting.subject?.done ?? 'carried out';
		const others =
			notActed.length === 0
				? `${OUTCOME} is "mayHaveActed" for ${them(mayHave.length)}.`
				: `${notActed.length} ${was(notActed.length)} not; ${OUTCOME} says which.`;
		const check = `${tally}: ${namedItems(mayHave, labels)} may have been ${done}: check before sending ${them(mayHave.length)} again.`;
		return hint(fitted(check, others), 'warning');
	}
	const all = [...mayHave, ...notActed].sort((a, b) => a - b);
	const refused = summary.failed.n8nRefused;
	const byN8n = `n8n refused ${refused === failed ? them(failed) : `${refused} of them`} by its settings for where requests may go: ${refused === 1 ? 'its error says' : 'their errors say'} what an administrator can set.`;
	const safe = setting.readOnly
		? `Sending ${them(failed)} again is safe: this operation changes nothing.`
		: `The service did not act on ${them(failed)}: sending ${them(failed)} again is safe.`;
	const why = `${failed === 1 ? 'Its error says why' : "Each one's error says why"}, and ${OUTCOME} its outcome.`;
	const head = `${tally}: ${namedItems(all, labels)}.`;
	const message = fitted(head, refused > 0 ? byN8n : safe, why);
	return hint(message, 'warning');
}

export function passingFaultsHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { transientRetried, breakerOpened } = summary;
	const down = summary.failed.serviceDown > 0;
	const retried =
		transientRetried > 0
			? `${items(transientRetried)} sent again after a passing fault (HTTP 500, 502 or 504, a reset or refused connection, or a timeout).`
			: '';
	if (!down && breakerOpened === 0)
		return retried ? hint(`${retried} The other items went on meanwhile.`) : undefined;
	const what = down
		? 'and a probe after a pause failed too, so the node stopped sending: send what it did not send once the service is back'
		: 'so the node paused and sent one request as a probe: it got an answer, and the run went on';
	return hint(
		fitted(`The outreach service looked down, ${what}.`, retried),
		down ? 'warning' : 'info',
	);
}

// failedAgain items are left to the failed-items hint.
export function earlierTryHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { answered, kept, answerLost, countedAsDone, sentAgain } = summary.earlierTry;
	const done = answered + kept + answerLost;
	if (done + countedAsDone + sentAgain === 0) return undefined;
	const first =
		done > 0
			? `n8n ran this node again: ${count(done, 'item', 'items')} carried out in an earlier try ${was(done)} not sent again.`
			: 'n8n ran this node again.';
	const said = [
		countedAsDone > 0 ? `${items(countedAsDone)} counted as done` : '',
		sentAgain > 0 ? `${countedAsDone > 0 ? sentAgain : items(sentAgain)} sent again` : '',
	].filter(Boolean);
	const ids = summary.keptIds;
	const more = ids.length > 2 ? ` and ${ids.length - 2} more` : '';
	// What the user said comes first: fitted keeps what fits, and the items' outputs say the rest.
	return hint(
		fitted(
			first,
			said.length > 0 ? `${capitalize(said.join(' and '))}, as ${UNCONFIRMED_OPTION} says.` : '',
			kept > 0
				? `${kept} kept ${kept === 1 ? 'its' : 'their'} earlier answer though the settings changed${ids.length > 0 ? ` (${ids.slice(0, 2).join(', ')}${more})` : ''}.`
				: '',
			answerLost > 0
				? `${answerLost} of them had no answer kept: ${answerLost === 1 ? 'its' : 'their'} output says "skipped": true.`
				: '',
		),
	);
}

export function doneBeforeHint(
	summary: RunSummary,
	windowMs: number | undefined,
): NodeExecutionHint | undefined {
	const { doneBefore } = summary.earlierTry;
	if (doneBefore === 0 || windowMs === undefined) return undefined;
	const noId = summary.doneBeforeWithoutId;
	const one = doneBefore === 1;
	return hint(
		fitted(
			`${items(doneBefore)} not sent again: done within the last ${span(windowMs)} (${one ? 'its' : 'their'} output says "skipped": true).`,
			noId > 0
				? `${noId === doneBefore ? (one ? 'It gives' : 'They give') : `${noId} give`} "id": null: later nodes get no ID for ${them(noId)}.`
				: undefined,
			`${REPEAT_OPTION} sends ${them(doneBefore)} again.`,
		),
	);
}

export function pushedBackHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { pushBacks, waitedRequests, retriedItems, transientRetried } = summary;
	const { disabled, exhausted, waitTooLong } = summary.notSentAgain;
	const notSentAgain = disabled + exhausted + waitTooLong;
	const retried = retriedItems - transientRetried;
	const failed = Object.values(summary.failed).some((value) => value > 0);
	const sentences = [
		pushBacks > 0
			? `The outreach service pushed back ${count(pushBacks, 'time', 'times')} (HTTP 429, 503 or rate-limit headers).`
			: waitedRequests > 0
				? 'The outreach service had pushed back before this run, so the node kept to its pace.'
				: '',
		retried > 0 ? `${items(retried)} sent again.` : '',
		notSentAgain > 0
			? `${items(notSentAgain)} not sent again, as Request Options › Rate Limit Handling says.`
			: '',
		waitedRequests > 0
			? `${count(waitedRequests, 'request', 'requests')} waited ${duration(summary.heldBackMs)} in all, at most ${duration(summary.longestWaitMs)}.`
			: '',
		// Only the failed-items hint counts failures: this one just says when none failed.
		failed ? '' : `All ${count(summary.items, 'item', 'items')} succeeded.`,
	].filter(Boolean);
	if (pushBacks === 0 && waitedRequests === 0 && retried <= 0 && notSentAgain === 0)
		return undefined;
	return hint(fitted(sentences[0], ...sentences.slice(1)));
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
		`Most of this run had as many requests in flight as the node allows (up to ${heldAt}), with no push-back: Request Options › Batching › Limit Fixed and a larger Items per Batch send more at once.`,
	);
}

export function memoryOffHint(): NodeExecutionHint {
	return hint(
		'This workflow is not saved, so the node keeps no memory: running it again sends every item again (Request Options › Skip Items Done Before is off). Save the workflow to turn the memory on.',
		'warning',
	);
}

export function rowFullHint(items: number, most: number, windowMs: number): NodeExecutionHint {
	const figure = (value: number) => value.toLocaleString('en-US');
	return hint(
		fitted(
			`This run has ${figure(items)} items and the node's memory keeps ${figure(most)}: its first items may be forgotten within ${span(windowMs)} and sent again.`,
			'Split the input, for example with Loop Over Items.',
		),
		'warning',
	);
}

// Keep this order: docs/hints.md lists the hints in it.
export function executionHints(summary: RunSummary, setting: HintSetting): NodeExecutionHint[] {
	return [
		retryOnFailHint(setting),
		unconfirmedForAllHint(setting),
		failedItemsHint(summary, setting),
		passingFaultsHint(summary),
		earlierTryHint(summary),
		doneBeforeHint(summary, setting.windowMs),
		pushedBackHint(summary),
		limitHint(summary),
	].filter((hint): hint is NodeExecutionHint => hint !== undefined);
}
