/**
 * The words of a re-run (reRun.ts): an item an earlier try handled, an item
 * a done key skipped or another execution was sending, and what a stopped
 * run did and how to go on safely. Pure functions, written once.
 */
import { RECENT_CREATES_MINUTES } from '../../helpers/defaults';
import type { Subject } from '../../helpers/interfaces';
import type { EarlierFailure } from './failedItem';
import type { FailureText } from './words';
import { capitalize, describeSubject, fitted, SERVICE } from './words';

/** The option that decides what a re-run does with an item an earlier try sent without a confirmation. */
export const UNCONFIRMED_OPTION = 'Request Options › Unconfirmed Earlier Try';
/** The option that keeps a new execution from doing again what this node did. */
export const DONE_KEYS_OPTION = 'Request Options › Skip Items Done Before';
/** The option that creates again what this node created lately (run/memory/recentCreates.ts). */
export const REPEAT_RECENT_OPTION = 'Request Options › Repeat Recent Creates';

/** 50000 as "50,000". */
export const figure = (value: number) => value.toLocaleString('en-US');

/** "24 hours", "90 minutes": a window or a lapse, in the unit the user set it in. */
export function span(ms: number): string {
	const minutes = Math.round(ms / 60_000);
	const [value, unit] = minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
	return `${value} ${unit}${value === 1 ? '' : 's'}`;
}

const CRASHED =
	'in an earlier try of this execution that n8n could not finish (it stopped or crashed)';

/**
 * How to go on safely after a run stopped, in one sentence: Executions ›
 * Retry keeps what was done; what Execute workflow does depends on the memory.
 */
export function safeWayOn(
	subject: Subject,
	memory: { doneKeys?: boolean; recentCreates?: boolean },
): string {
	const { done, verb } = subject;
	if (memory.doneKeys)
		return `Executions › Retry keeps what was already ${done}, and so does ${DONE_KEYS_OPTION} when the workflow runs again.`;
	if (memory.recentCreates)
		return `Executions › Retry keeps what was already ${done}, and so does Execute workflow within ${RECENT_CREATES_MINUTES} minutes.`;
	return `Executions › Retry keeps what was already ${done}; Execute workflow starts over and ${verb}s it again, unless ${DONE_KEYS_OPTION} was set for this run.`;
}

/** What the user can do about an item whose outcome only the service knows: check, then say, then run it again. */
function whatToDo(subject: Subject, itemIndex: number, again: string): string {
	return `Check in ${SERVICE} whether ${describeSubject(subject)} was ${subject.done}. Then set ${UNCONFIRMED_OPTION} to Send Again (it was not) or Count as Done (it was), ${SAVE}, and ${again}. For this item alone, the option can be the expression {{ $itemIndex === ${itemIndex} ? 'countAsDone' : 'fail' }}.`;
}

/** The last step of the way on after a stop: the retry that reads the options as saved. */
export const RETRY = 'use Executions › Retry with the currently saved workflow';

/** The step before RETRY: n8n 1.x needs it, 2.x saves the workflow on its own. */
export const SAVE = 'save (n8n 2.x saves on its own)';

/**
 * What an item outputs that an earlier try had carried out, whose answer is
 * not kept (too large for the record, or lost in a crash): it is not sent
 * again, whatever Unconfirmed Earlier Try says.
 */
export function answerLostItem(subject: Subject, crashed: boolean) {
	const already = `${capitalize(SERVICE)} already ${subject.done} ${describeSubject(subject)}`;
	const when = crashed ? CRASHED : 'in an earlier try of this execution';
	const lost = crashed ? 'lost with that try' : 'too large to keep with the execution';
	return {
		skipped: true,
		id: subject.id ?? null,
		reason: `${already} ${when}, so it was not sent again. Its answer was ${lost}: find it in ${SERVICE}.`,
	};
}

/** An item an earlier try sent without a confirmation, failed again, unsent: the earlier words, and what to do. */
export function unknownBeforeText(
	subject: Subject,
	earlier: EarlierFailure,
	itemIndex: number,
): FailureText {
	if (earlier.key !== undefined)
		return {
			message: `Another execution of this node met key "${earlier.key}" within the Window of ${DONE_KEYS_OPTION} and has not confirmed it: it may be sending the request to ${subject.verb} ${describeSubject(subject)} now, or it sent it and ${SERVICE} did not confirm it, so it may have carried it out. It was not sent.`,
			description: `If another execution is still running, let it end, then run this one again: what it confirms is skipped. Otherwise: ${whatToDo(subject, itemIndex, 'run the workflow again')}`,
		};
	if (earlier.crashed)
		return {
			message: `The request to ${subject.verb} ${describeSubject(subject)} went out ${CRASHED} and got no answer: check in ${SERVICE} whether it was ${subject.done}. It was not sent again.`,
			description: whatToDo(subject, itemIndex, RETRY),
		};
	// The earlier message says what happened and to check; this one, what the re-run did and where to say the rest.
	return {
		message: `${earlier.message} n8n ran the node again, and it was not sent again: once checked, say what to do in ${UNCONFIRMED_OPTION}.`,
		description: `${whatToDo(subject, itemIndex, RETRY)}\n\nThe earlier failure: ${earlier.description}`,
	};
}

/** Why an item was not sent (after "Not sent: "): n8n's store for processed items failed (`reason`) while the node wrote down or looked up what it sends. */
export function storeFailedText(reason: string): string {
	return `n8n's store for processed items failed (${reason}), so the node could not write down or look up what it sends, and sends nothing it can't account for. Run it again once n8n's database answers again.`;
}

/**
 * An item whose say in Unconfirmed Earlier Try could not be read, as its
 * expression failed for this item: not sent, as with Fail. `earlier` is
 * what the item's text would have been, and goes in the description.
 */
export function unconfirmedFailedText(earlier: FailureText, error: unknown): FailureText {
	const reason = error instanceof Error ? error.message : String(error);
	return {
		message: `Not sent: the expression in ${UNCONFIRMED_OPTION} failed for this item (${reason}). Fix it so that it gives fail, sendAgain or countAsDone for this item, ${SAVE}, and ${RETRY}.`,
		description: `An earlier try handled this item, so only that option can send it again, and until it can be read, the item is not sent, as with Fail. What the earlier try left: ${earlier.message}\n\n${earlier.description}`,
	};
}

/** A request that was out when the node failed, whose answer was lost with the run: a re-run quotes it (unknownBeforeText). */
export function lostAnswerText(subject: Subject): string {
	return `The request to ${subject.verb} ${describeSubject(subject)} went out as the node failed, and its answer was lost, so ${SERVICE} may have carried it out.`;
}

/** Why no item is sent: n8n has no store for processed items here. */
export function noKeyStoreText(): string {
	return `${DONE_KEYS_OPTION} needs n8n's store for processed items: n8n 1.65 or later, and a saved workflow.`;
}

/** Why no item is sent: the run has more keys than n8n's store keeps for a run (`maxRunKeys`). */
export function tooManyKeysText(keys: number, maxRunKeys: number): string {
	return `${DONE_KEYS_OPTION} keeps at most ${figure(maxRunKeys)} keys for one run, and this run has ${figure(keys)}, so nothing was sent. Split the input into runs of at most ${figure(maxRunKeys)} items, for example with Loop Over Items, or leave the Key empty.`;
}

/** Why no item is sent: n8n's store failed while the keys were claimed or looked up. */
export function keyStoreFailedText(error: string): string {
	return `n8n's store for processed items failed (${error}), so ${DONE_KEYS_OPTION} could not check this item's key, and nothing was sent. Run the workflow again; if the store fails again, n8n's log and database say why.`;
}

/** A run that pushes entries of earlier runs out of n8n's store for this node's keys, which keeps `maxEntries`. */
export function keysPushedOutText(
	before: number,
	adds: number,
	maxEntries: number,
	maxRunKeys: number,
): string {
	return fitted(
		`n8n keeps ${figure(maxEntries)} entries for this node's keys, holds ${figure(before)}, and this run adds up to ${figure(adds)}: keys of earlier runs may be forgotten before their Window ends, and sent again.`,
		`A run of up to ${figure(maxRunKeys)} keys fits on its own.`,
	);
}

/** What an item skipped by its done key outputs. */
export function keyDoneBeforeItem(subject: Subject, key: string, windowMs: number) {
	return {
		skipped: true,
		key,
		id: subject.id ?? null,
		reason: `This node already ${subject.done} the ${subject.noun} for key "${key}" (${DONE_KEYS_OPTION}, Window ${span(windowMs)}), so it was not sent again.`,
	};
}

/** What an item counted as done outputs: it has no answer of the service. */
export function countedAsDoneItem(subject: Subject) {
	return {
		skipped: true,
		id: subject.id ?? null,
		reason: `Counted as done, as ${UNCONFIRMED_OPTION} says: an earlier try sent the request to ${subject.verb} ${describeSubject(subject)}, and ${SERVICE} may have carried it out. It was not sent again.`,
	};
}

/** "45 seconds", "1 minute", "7 minutes": how long ago, to the second under a minute. */
export function ago(ms: number): string {
	const seconds = Math.max(1, Math.round(ms / 1000));
	if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
	const minutes = Math.round(seconds / 60);
	return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** What a create outputs that this node created lately with the very same request (recentCreates.ts). */
export function createdLatelyItem(
	subject: Subject,
	earlier: { at: number; execution: string; id: string | null },
	now: number,
) {
	const which = earlier.execution ? `, in execution ${earlier.execution}` : '';
	return {
		skipped: true,
		id: earlier.id,
		reason: `This node ${subject.done} ${describeSubject(subject)} ${ago(now - earlier.at)} ago${which}, with the very same request, so it was not ${subject.done} again. To ${subject.verb} it again, turn on ${REPEAT_RECENT_OPTION}.`,
	};
}

/** A create that another execution is sending at this moment, with the very same request: not sent. */
export function sendingElsewhereText(subject: Subject, execution: string): FailureText {
	return {
		message: `Not sent: execution ${execution} of this workflow is sending the very same request to ${subject.verb} ${describeSubject(subject)} right now.`,
		description: `Run this one again once that execution has ended: what it ${subject.done} is then skipped, and what it did not is sent. To ${subject.verb} it twice on purpose, turn on ${REPEAT_RECENT_OPTION}.`,
	};
}
