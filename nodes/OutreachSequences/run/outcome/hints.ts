/**
 * The execution hints n8n shows in the node's output pane after a run: what
 * slowed the run down, which items failed and whether the service may have
 * acted on them, and a warning when Retry On Fail is on. Pure functions of a
 * run's summary (runReport.ts); a clean run gets none.
 */
import type { NodeExecutionHint } from 'n8n-workflow';

import type { Subject } from '../../describe/types';
import { earlierTryHint, keyHint, unconfirmedForAllHint } from './reRunHints';
import { safeWayOn, UNCONFIRMED_OPTION } from './reRunTexts';
import { refusedItemsText } from './refusal';
import type { RunSummary } from './runReport';
import { duration } from './words';

/** What the hints need to know of the node besides the run. */
export interface HintSetting {
	/** The node's Settings › Retry On Fail. */
	retryOnFail: boolean;
	/** The operation changes nothing at the service (Get Use Case). */
	readOnly: boolean;
	/** What the run's requests were about, for the way on after failures. */
	subject?: Subject;
	/** Request Options › Skip Items Done Before is set. */
	doneKeys?: boolean;
	/** Failed items go on as output (On Error › Continue): the execution can't be retried, only run again. */
	continues?: boolean;
	/** Request Options › Unconfirmed Earlier Try, when it is one value for every item other than Fail. */
	unconfirmedForAll?: 'sendAgain' | 'countAsDone';
}

const SERVICE = 'the outreach service';

/** Where a failed item's outcome is, in either Continue mode (failedItem.ts). */
export const OUTCOME_EXPRESSION = '{{ $json.message.outcome }}';

function count(value: number, one: string, many: string): string {
	return `${value} ${value === 1 ? one : many}`;
}

function was(value: number): string {
	return value === 1 ? 'was' : 'were';
}

/** The service pushed back, or its pace held this run's requests back: how much, and how the retried items ended. */
export function pushedBackHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { pushBacks, waitedRequests, retriedItems, retriedFailed, transientRetried } = summary;
	const onlyTransient = retriedItems <= transientRetried;
	if (
		pushBacks === 0 &&
		waitedRequests === 0 &&
		onlyTransient &&
		notSentAgainText(summary) === undefined
	)
		return undefined;
	const sentences: string[] = [];
	if (pushBacks > 0) {
		sentences.push(
			`The outreach service pushed back ${count(pushBacks, 'time', 'times')} (HTTP 429 or 503, or rate-limit headers that said its quota was used up).`,
		);
	} else if (waitedRequests > 0) {
		sentences.push(
			`The outreach service had pushed back before this run, so the node went at the pace the service set.`,
		);
	}
	if (waitedRequests > 0) {
		sentences.push(
			`${count(waitedRequests, 'request', 'requests')} waited before going out: ${duration(summary.heldBackMs)} in all, the longest wait ${duration(summary.longestWaitMs)}.`,
		);
	}
	if (retriedItems > 0) {
		const one = retriedItems === 1;
		const ending =
			retriedFailed === 0
				? one
					? 'it succeeded'
					: 'all of them succeeded'
				: one
					? 'it did not succeed'
					: `${retriedFailed} of them did not succeed`;
		sentences.push(`${count(retriedItems, 'item was', 'items were')} sent again; ${ending}.`);
	}
	const notSentAgain = notSentAgainText(summary);
	if (notSentAgain) sentences.push(notSentAgain);
	const failed = totalFailed(summary);
	sentences.push(
		failed === 0
			? `All ${count(summary.items, 'item', 'items')} succeeded.`
			: `${failed} of ${summary.items} ${summary.items === 1 ? 'item' : 'items'} failed.`,
	);
	return { type: 'info', location: 'outputPane', message: sentences.join(' ') };
}

/** Why items the service pushed back on were not sent again, as Request Options › Rate Limit Handling decided. */
function notSentAgainText(summary: RunSummary): string | undefined {
	const { disabled, exhausted, waitTooLong } = summary.notSentAgain;
	const reasons: string[] = [];
	if (waitTooLong > 0)
		reasons.push(
			`${waitTooLong} because the service asked for a longer wait than Max Wait (Seconds) allows`,
		);
	if (exhausted > 0) reasons.push(`${exhausted} after Max Retries per Item`);
	if (disabled > 0) reasons.push(`${disabled} because Wait and Retry is off`);
	const total = disabled + exhausted + waitTooLong;
	if (total === 0) return undefined;
	return `${count(total, 'item was', 'items were')} not sent again (Request Options › Rate Limit Handling): ${reasons.join(', ')}.`;
}

function totalFailed(summary: RunSummary): number {
	return Object.values(summary.failed).reduce((sum, count) => sum + count, 0);
}

/** Items failed: how many, grouped by cause, and what to check before sending again those the service may have acted on. */
export function failedItemsHint(
	summary: RunSummary,
	setting: HintSetting,
): NodeExecutionHint | undefined {
	const failed = totalFailed(summary);
	if (failed === 0) return undefined;
	const { notSent, n8nRefused, rejected, unreached, mayHaveActed, serviceDown } = summary.failed;
	const { unknownBefore } = summary.failed;
	const groups: string[] = [];
	const notActed = '(outcome "notActed")';
	if (rejected > 0)
		groups.push(
			`${rejected} ${was(rejected)} refused by the service, which did not act on ${rejected === 1 ? 'it' : 'them'} ${notActed}`,
		);
	if (notSent > 0)
		groups.push(
			`${notSent} ${was(notSent)} never sent: the input or the credential did not pass validation ${notActed}`,
		);
	if (n8nRefused > 0) groups.push(refusedItemsText(n8nRefused));
	if (unreached > 0)
		groups.push(
			`${unreached} never reached the service: the connection was refused, or its host or certificate failed ${notActed}`,
		);
	if (mayHaveActed > 0) {
		groups.push(
			`${mayHaveActed} may have been carried out: the service timed out, reset the connection or failed with HTTP 5xx after ${mayHaveActed === 1 ? 'it was' : 'they were'} sent (outcome "mayHaveActed")`,
		);
	}
	if (unknownBefore > 0) {
		groups.push(
			`${unknownBefore} ${was(unknownBefore)} not sent again: an earlier try, or another execution with the same key, sent ${unknownBefore === 1 ? 'it' : 'them'} or is sending ${unknownBefore === 1 ? 'it' : 'them'} now, and the service may have carried ${unknownBefore === 1 ? 'it' : 'them'} out (outcome "mayHaveActed"); check in ${SERVICE}, then say what to do in ${UNCONFIRMED_OPTION}`,
		);
	}
	if (serviceDown > 0) {
		groups.push(
			`${serviceDown} ${was(serviceDown)} not sent, or not sent again, because the service looked down`,
		);
	}
	let message = `${failed} of ${summary.items} ${summary.items === 1 ? 'item' : 'items'} failed. ${capitalize(groups.join('; '))}.`;
	if (mayHaveActed > 0) {
		message += setting.readOnly
			? ' This operation changes nothing, so sending those again is safe.'
			: ` Before sending ${mayHaveActed === 1 ? 'that item' : 'those items'} again, check in ${SERVICE} whether ${mayHaveActed === 1 ? 'it was' : 'they were'} carried out, or ${mayHaveActed === 1 ? 'it' : 'they'} may be carried out twice.`;
	}
	message += ` Each item's error says what happened, and ${OUTCOME_EXPRESSION} its outcome.`;
	if (!setting.readOnly && setting.subject)
		message += ` ${safeWayOn(setting.subject, setting.doneKeys === true, setting.continues === true)}`;
	return { type: 'warning', location: 'outputPane', message };
}

/** The warning for Retry On Fail, which re-runs every item of the node. */
export const RETRY_ON_FAIL_TEXT =
	'Retry On Fail is on: n8n runs this node again, with every item, when it fails or when its first item fails. Only items the service refused go out again: those it carried out, or may have, are not sent again, and the node already resends on its own what the service pushed back on (HTTP 429, and 503 with Retry-After).';

export function retryOnFailHint(setting: HintSetting): NodeExecutionHint | undefined {
	if (!setting.retryOnFail || setting.readOnly) return undefined;
	return { type: 'warning', location: 'outputPane', message: RETRY_ON_FAIL_TEXT };
}

/**
 * Faults that were not push-backs (HTTP 500, 502, 504, resets, timeouts,
 * refused connections): the items sent again after a backoff of their own,
 * and whether the service's breaker opened, and what came of its probe.
 */
export function passingFaultsHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { transientRetried, breakerOpened } = summary;
	const notSent = summary.failed.serviceDown;
	if (transientRetried === 0 && breakerOpened === 0 && notSent === 0) return undefined;
	const sentences: string[] = [];
	if (transientRetried > 0) {
		sentences.push(
			`${count(transientRetried, 'item', 'items')} met a passing fault (HTTP 5xx other than 503, a reset or refused connection, or a timeout) and ${transientRetried === 1 ? 'was' : 'were'} sent again after a short wait of ${transientRetried === 1 ? 'its' : 'their'} own; the other items went on.`,
		);
	}
	if (breakerOpened > 0 || notSent > 0) {
		sentences.push(
			'The service looked down: most recent requests to it got no useful answer, so the node stopped sending, paused, and sent one request as a probe.',
		);
		sentences.push(
			notSent > 0
				? `The probe failed too, so ${count(notSent, 'item was', 'items were')} not sent, or not sent again. Send ${notSent === 1 ? 'it' : 'them'} again once the service is back.`
				: 'The probe got an answer, so the run went on.',
		);
	}
	return {
		type: notSent > 0 ? 'warning' : 'info',
		location: 'outputPane',
		message: sentences.join(' '),
	};
}

/** The service answered more slowly with more requests under way, so fewer went at once than there were items (pace/latencyLimit.ts). */
export function inFlightHint(summary: RunSummary): NodeExecutionHint | undefined {
	const held = summary.heldInFlight;
	if (held === undefined) return undefined;
	return {
		type: 'info',
		location: 'outputPane',
		message: `The outreach service answered more slowly with more requests under way, so the node sent about ${count(held, 'request', 'requests')} at a time.`,
	};
}

/** Every hint the run has something to say in, in the order the user reads them. */
export function executionHints(summary: RunSummary, setting: HintSetting): NodeExecutionHint[] {
	return [
		retryOnFailHint(setting),
		unconfirmedForAllHint(setting),
		failedItemsHint(summary, setting),
		passingFaultsHint(summary),
		earlierTryHint(summary),
		keyHint(summary),
		pushedBackHint(summary),
		inFlightHint(summary),
	].filter((hint): hint is NodeExecutionHint => hint !== undefined);
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
