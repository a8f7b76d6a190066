/** The words of a re-run and of the node's memory: items done before or unknown, and the way on. */
import type { Subject } from '../../helpers/interfaces';
import type { EarlierFailure } from './failedItem';
import type { FailureText } from './words';
import { capitalize, describeSubject, fitted, SERVICE } from './words';

export const UNCONFIRMED_OPTION = 'Request Options › Unconfirmed Earlier Try';
export const DONE_KEYS_OPTION = 'Request Options › Skip Items Done Before';
export const REPEAT_OPTION = 'Request Options › Repeat Items Done Before';

export const figure = (value: number) => value.toLocaleString('en-US');

export function span(ms: number): string {
	const minutes = Math.round(ms / 60_000);
	const [value, unit] = minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
	return `${value} ${unit}${value === 1 ? '' : 's'}`;
}

export function safeWayOn(subject: Subject, windowMs: number | undefined): string {
	const { done, verb } = subject;
	if (windowMs !== undefined)
		return `Executions › Retry keeps what was already ${done}, and so does running the workflow again within ${span(windowMs)}.`;
	return `Executions › Retry keeps what was already ${done}; running the workflow again ${verb}s it again, as this workflow is not saved.`;
}

function whatToDo(subject: Subject, itemIndex: number, again: string): string {
	return `Check in ${SERVICE} whether ${describeSubject(subject)} was ${subject.done}. Then set ${UNCONFIRMED_OPTION} to Send Again (it was not) or Count as Done (it was), ${SAVE}, and ${again}. For this item alone, the option can be the expression {{ $itemIndex === ${itemIndex} ? 'countAsDone' : 'fail' }}.`;
}

export const RETRY = 'use Executions › Retry with the currently saved workflow';

export const SAVE = 'save (n8n 2.x saves on its own)';

export function answerLostItem(subject: Subject) {
	return {
		skipped: true,
		id: subject.id ?? null,
		reason: `${capitalize(SERVICE)} already ${subject.done} ${describeSubject(subject)} in an earlier try of this execution, so it was not sent again. Its answer was too large to keep with the execution: find it in ${SERVICE}.`,
	};
}

export function doneBeforeItem(
	subject: Subject,
	known: { at: number; execution: string; id: string | null } | undefined,
	windowMs: number,
	now: number,
) {
	const when = known
		? `${ago(now - known.at)} ago${known.execution ? `, in execution ${known.execution}` : ''}`
		: `within the last ${span(windowMs)}`;
	return {
		skipped: true,
		id: known?.id ?? null,
		reason: `This node already ${subject.done} ${describeSubject(subject)} ${when}, so it was not sent again (${DONE_KEYS_OPTION}). To send it again, turn on ${REPEAT_OPTION}.`,
	};
}

export function unknownBeforeText(
	subject: Subject,
	earlier: EarlierFailure,
	itemIndex: number,
): FailureText {
	if (earlier.claimed !== undefined) {
		const who = earlier.claimed
			? `execution ${earlier.claimed}, which is still running,`
			: 'an earlier run of this node';
		return {
			message: `${capitalize(who)} sent the request to ${subject.verb} ${describeSubject(subject)} within the last ${span(earlier.windowMs ?? 0)}, and ${SERVICE} never confirmed it (n8n stopped or crashed, or the answer was a failure), so it may have carried it out. It was not sent.`,
			description: `If that execution is still running, let it end, then run this one again: what it confirms is skipped. Otherwise: ${whatToDo(subject, itemIndex, 'run the workflow again')}`,
		};
	}
	return {
		message: `${earlier.message} n8n ran the node again, and it was not sent again: once checked, say what to do in ${UNCONFIRMED_OPTION}.`,
		description: `${whatToDo(subject, itemIndex, RETRY)}\n\nThe earlier failure: ${earlier.description}`,
	};
}

export function storeFailedText(reason: string): string {
	return `n8n's store for processed items failed (${reason}), so the node could not write down or look up what it sends, and sends nothing it can't account for. Run it again once n8n's database answers again.`;
}

export function unconfirmedFailedText(earlier: FailureText, error: unknown): FailureText {
	const reason = error instanceof Error ? error.message : String(error);
	return {
		message: `Not sent: the expression in ${UNCONFIRMED_OPTION} failed for this item (${reason}). Fix it so that it gives fail, sendAgain or countAsDone for this item, ${SAVE}, and ${RETRY}.`,
		description: `An earlier try handled this item, so only that option can send it again, and until it can be read, the item is not sent, as with Fail. What the earlier try left: ${earlier.message}\n\n${earlier.description}`,
	};
}

export function lostAnswerText(subject: Subject): string {
	return `The request to ${subject.verb} ${describeSubject(subject)} went out as the node failed, and its answer was lost, so ${SERVICE} may have carried it out.`;
}

export function countedAsDoneItem(subject: Subject) {
	return {
		skipped: true,
		id: subject.id ?? null,
		reason: `Counted as done, as ${UNCONFIRMED_OPTION} says: an earlier try sent the request to ${subject.verb} ${describeSubject(subject)}, and ${SERVICE} may have carried it out. It was not sent again.`,
	};
}

export function ago(ms: number): string {
	const seconds = Math.max(1, Math.round(ms / 1000));
	if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
	const minutes = Math.round(seconds / 60);
	return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export function memoryOffText(): string {
	return `This workflow is not saved, so the node keeps no memory of what it did: running it again sends every item again, and ${DONE_KEYS_OPTION} is off. Save the workflow to turn the memory on.`;
}

export function rowFullText(items: number, most: number, windowMs: number): string {
	return fitted(
		`This run has ${figure(items)} items and the node's memory keeps ${figure(most)}: its first items may be forgotten within ${span(windowMs)} and sent again.`,
		'Split the input, for example with Loop Over Items.',
	);
}
