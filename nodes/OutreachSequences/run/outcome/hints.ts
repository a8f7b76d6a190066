/** The execution hints n8n shows in the output pane after a run: pure functions of its summary. */
import type { NodeExecutionHint } from 'n8n-workflow';

import { MAX_BATCH_SIZE } from '../../helpers/defaults';
import type { Subject } from '../../helpers/interfaces';
import { namedItems } from './itemList';
import { doneBeforeHint, earlierTryHint, unconfirmedForAllHint } from './reRunHints';
import type { RunSummary } from './runReport';
import { capitalize, duration, fitted } from './words';

export interface HintSetting {
	retryOnFail: boolean;
	readOnly: boolean;
	subject?: Subject;
	windowMs?: number;
	unconfirmedForAll?: 'sendAgain' | 'countAsDone';
}

export const OUTCOME_EXPRESSION = '{{ $json.message.outcome }}';

function count(value: number, one: string, many: string): string {
	return `${value} ${value === 1 ? one : many}`;
}

const them = (value: number) => (value === 1 ? 'it' : 'them');

function totalFailed(summary: RunSummary): number {
	return Object.values(summary.failed).reduce((sum, count) => sum + count, 0);
}

export function pushedBackHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { pushBacks, waitedRequests, retriedItems, transientRetried } = summary;
	const { disabled, exhausted, waitTooLong } = summary.notSentAgain;
	const notSentAgain = disabled + exhausted + waitTooLong;
	const retried = retriedItems - transientRetried;
	if (pushBacks === 0 && waitedRequests === 0 && retried <= 0 && notSentAgain === 0)
		return undefined;
	const sentAgain = [
		retried > 0 ? `${count(retried, 'item was', 'items were')} sent again` : '',
		notSentAgain > 0
			? `${retried > 0 ? `${notSentAgain} ${notSentAgain === 1 ? 'was' : 'were'} not` : `${count(notSentAgain, 'item was', 'items were')} not sent again`}, as Request Options › Rate Limit Handling says`
			: '',
	]
		.filter(Boolean)
		.join(', and ');
	const first =
		pushBacks > 0
			? `The outreach service pushed back ${count(pushBacks, 'time', 'times')} (HTTP 429, 503 or rate-limit headers)${sentAgain ? `: ${sentAgain}` : ''}.`
			: waitedRequests > 0
				? 'The outreach service had pushed back before this run, so the node kept to its pace.'
				: `${capitalize(sentAgain)}.`;
	const waited =
		waitedRequests > 0
			? `${count(waitedRequests, 'request', 'requests')} waited ${duration(summary.heldBackMs)} in all, at most ${duration(summary.longestWaitMs)}.`
			: undefined;
	// Only the failed-items hint counts failures: this one just says when none failed.
	const allSucceeded =
		totalFailed(summary) === 0
			? `All ${count(summary.items, 'item', 'items')} succeeded.`
			: undefined;
	return { type: 'info', location: 'outputPane', message: fitted(first, waited, allSucceeded) };
}

export function failedItemsHint(
	summary: RunSummary,
	setting: HintSetting,
): NodeExecutionHint | undefined {
	const failed = totalFailed(summary);
	if (failed === 0) return undefined;
	const { mayHave, notActed, labels } = summary.failedItems;
	const tally = `${failed} of ${summary.items} ${summary.items === 1 ? 'item' : 'items'} failed`;
	let message: string;
	if (mayHave.length > 0 && !setting.readOnly) {
		const done = setting.subject?.done ?? 'carried out';
		const check = `${tally}: ${namedItems(mayHave, labels)} may have been ${done}: check before sending ${them(mayHave.length)} again.`;
		const says = `${OUTCOME_EXPRESSION} says which.`;
		// The others by number, or by count where their numbers do not fit.
		const others =
			notActed.length === 0
				? [`${OUTCOME_EXPRESSION} is "mayHaveActed" for ${them(mayHave.length)}.`]
				: [
						`${capitalize(namedItems(notActed, {}))} ${notActed.length === 1 ? 'was' : 'were'} not; ${says}`,
						`${notActed.length} ${notActed.length === 1 ? 'was' : 'were'} not; ${says}`,
					];
		message =
			others.map((sentence) => fitted(check, sentence)).find((text) => text !== check) ?? check;
	} else {
		const all = [...mayHave, ...notActed].sort((a, b) => a - b);
		const refused = summary.failed.n8nRefused;
		const byN8n = `n8n refused ${refused === 1 ? '1 request' : `${refused} requests`} by its settings for where requests may go: ${refused === 1 ? 'its error says' : 'their errors say'} what an administrator can set.`;
		const safe = setting.readOnly
			? `Sending ${them(failed)} again is safe: this operation changes nothing.`
			: `The service did not act on ${them(failed)}: sending ${them(failed)} again is safe.`;
		const why = `${failed === 1 ? 'Its error says why' : "Each one's error says why"}, and ${OUTCOME_EXPRESSION} its outcome.`;
		const head = `${tally}: ${namedItems(all, labels)}.`;
		message =
			refused === failed
				? fitted(head, byN8n)
				: fitted(head, safe, ...(refused > 0 ? [byN8n] : []), why);
	}
	return { type: 'warning', location: 'outputPane', message };
}

export const RETRY_ON_FAIL_TEXT =
	'Retry On Fail is on: n8n runs this node again with every item, and only items the service refused go out again. The node resends what the service pushed back on by itself.';

export function retryOnFailHint(setting: HintSetting): NodeExecutionHint | undefined {
	if (!setting.retryOnFail || setting.readOnly) return undefined;
	return { type: 'warning', location: 'outputPane', message: RETRY_ON_FAIL_TEXT };
}

export function passingFaultsHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { transientRetried, breakerOpened } = summary;
	const down = summary.failed.serviceDown > 0;
	if (transientRetried === 0 && breakerOpened === 0 && !down) return undefined;
	const retried =
		transientRetried > 0
			? `${count(transientRetried, 'item was', 'items were')} sent again after a passing fault (HTTP 500, 502 or 504, a reset or refused connection, or a timeout).`
			: undefined;
	const message = down
		? fitted(
				'The outreach service looked down, and a probe after a pause failed too, so the node stopped sending: send what it did not send once the service is back.',
				retried,
			)
		: breakerOpened > 0
			? fitted(
					'The outreach service looked down, so the node paused and sent one request as a probe: it got an answer, and the run went on.',
					retried,
				)
			: `${retried} The other items went on meanwhile.`;
	return { type: down ? 'warning' : 'info', location: 'outputPane', message };
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
	return {
		type: 'info',
		location: 'outputPane',
		message: `Most of this run had as many requests in flight as the node allows (up to ${heldAt}), with no push-back: Request Options › Batching › Limit Fixed and a larger Items per Batch send more at once.`,
	};
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
