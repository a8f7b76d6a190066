/**
 * The hints of a re-run: what came of the items an earlier try of this
 * execution had handled (reRun.ts), of those whose done key an earlier
 * execution had (doneKeys.ts), and of the creates this node made lately
 * (recentCreates.ts). Pure functions of a run's summary.
 */
import type { NodeExecutionHint } from 'n8n-workflow';

import { RECENT_CREATES_MINUTES } from '../../describe/defaults';
import {
	DONE_KEYS_OPTION,
	keysPushedOutText,
	REPEAT_RECENT_OPTION,
	UNCONFIRMED_OPTION,
} from './reRunTexts';
import type { RunSummary } from './runReport';

const count = (value: number, one: string, many: string) => `${value} ${value === 1 ? one : many}`;
const was = (value: number) => (value === 1 ? 'was' : 'were');

/** How many IDs the hint names before it gives a count. */
const IDS_NAMED = 5;

function ids(list: string[]): string {
	if (list.length === 0) return '';
	const more = list.length > IDS_NAMED ? ` and ${list.length - IDS_NAMED} more` : '';
	return ` (IDs: ${list.slice(0, IDS_NAMED).join(', ')}${more})`;
}

/** n8n ran the node again: what was answered, kept, counted as done, failed again or sent again. */
export function earlierTryHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { answered, kept, answerLost, countedAsDone, failedAgain, sentAgain } = summary.earlierTry;
	if (answered + kept + answerLost + countedAsDone + failedAgain + sentAgain === 0)
		return undefined;
	const sentences = ['n8n ran this node again (Retry On Fail, or Executions › Retry).'];
	if (answered > 0)
		sentences.push(
			`${count(answered, 'item', 'items')} the service had already carried out ${was(answered)} not sent again: ${answered === 1 ? 'its output is' : 'their output is'} the answer the service gave then.`,
		);
	if (kept > 0)
		sentences.push(
			`${count(kept, 'item', 'items')} ${was(kept)} kept although the node's settings changed since: the service had already carried ${kept === 1 ? 'it' : 'them'} out, so ${kept === 1 ? 'it was' : 'they were'} not sent again, and the output is the answer it gave then${ids(summary.keptIds)}.`,
		);
	if (answerLost > 0)
		sentences.push(
			`${count(answerLost, 'item', 'items')} the service had already carried out ${was(answerLost)} not sent again; ${answerLost === 1 ? 'its answer was' : 'their answers were'} too large to keep or lost in a crash, so ${answerLost === 1 ? 'its output says' : 'their output says'} so ("skipped": true).`,
		);
	if (failedAgain > 0)
		sentences.push(
			`${count(failedAgain, 'item', 'items')} an earlier try sent without a confirmation ${was(failedAgain)} not sent again: check ${failedAgain === 1 ? 'it' : 'them'} in the outreach service, then set ${UNCONFIRMED_OPTION}.`,
		);
	if (sentAgain > 0)
		sentences.push(
			`${count(sentAgain, 'item was', 'items were')} sent again, as ${UNCONFIRMED_OPTION} says.`,
		);
	if (countedAsDone > 0)
		sentences.push(
			`${count(countedAsDone, 'item was', 'items were')} counted as done, as ${UNCONFIRMED_OPTION} says.`,
		);
	return { type: 'info', location: 'outputPane', message: sentences.join(' ') };
}

/** Items a done key skipped: this node had done them in an earlier execution. */
export function keyHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { keyDoneBefore } = summary.earlierTry;
	if (keyDoneBefore === 0) return undefined;
	return {
		type: 'info',
		location: 'outputPane',
		message: `${count(keyDoneBefore, 'item was', 'items were')} not sent: this node had already carried out an item with the same key within the window of ${DONE_KEYS_OPTION}. ${keyDoneBefore === 1 ? 'Its output says' : 'Their output says'} so ("skipped": true).`,
	};
}

/** Creates this node made lately, in another execution, with the very same request: not made again. */
export function createdLatelyHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { createdLately } = summary.earlierTry;
	if (createdLately === 0) return undefined;
	return {
		type: 'info',
		location: 'outputPane',
		message: `${count(createdLately, 'item was', 'items were')} not created again: this node created the very same ${createdLately === 1 ? 'one' : 'ones'} less than ${RECENT_CREATES_MINUTES} minutes ago (${createdLately === 1 ? 'its output says' : 'their output says'} when, and in which execution). ${REPEAT_RECENT_OPTION} creates them again.`,
	};
}

/**
 * Unconfirmed Earlier Try left at one value for every item: it was meant for
 * one retry, and would decide, unchecked, for every item a later retry finds.
 */
export function unconfirmedForAllHint(setting: {
	/** The operation changes nothing at the service. */
	readOnly: boolean;
	/** Request Options › Unconfirmed Earlier Try, when it is one value for every item other than Fail. */
	unconfirmedForAll?: 'sendAgain' | 'countAsDone';
}): NodeExecutionHint | undefined {
	const said = setting.unconfirmedForAll;
	if (said === undefined || setting.readOnly) return undefined;
	const what =
		said === 'countAsDone'
			? 'counted as done without a check, and is never sent'
			: 'sent again without a check, and may be carried out twice';
	return {
		type: 'warning',
		location: 'outputPane',
		message: `${UNCONFIRMED_OPTION} is ${said === 'countAsDone' ? 'Count as Done' : 'Send Again'} for every item: when n8n runs this node again, an item whose outcome is unknown is ${what}. Set it back to Fail once the retry it was meant for has run, or decide per item with an expression.`,
	};
}

/** n8n's store for this node's keys holds `before` entries, and this run adds up to `adds`: past `max`, the oldest go. */
export function keysPushedOutHint(
	before: number,
	adds: number,
	max: number,
	maxRunKeys: number,
): NodeExecutionHint | undefined {
	if (adds === 0 || before + adds <= max) return undefined;
	const message = keysPushedOutText(before, adds, max, maxRunKeys);
	return { type: 'warning', location: 'outputPane', message };
}
