/** The words of a re-run, of the node's memory and of a stopped run: items done before or unknown, and the way on. */
import type { Subject } from '../../helpers/interfaces';
import type { EarlierFailure } from './failedItem';
import type { FailureText } from './words';
import { capitalize, describeSubject, itemNumbers, SERVICE, was } from './words';

export const UNCONFIRMED_OPTION = 'Request Options › Unconfirmed Earlier Try';
export const REPEAT_OPTION = 'Request Options › Repeat Items Done Before';
const DONE_KEYS_OPTION = 'Request Options › Skip Items Done Before';
const RETRY = 'use Executions › Retry with the currently saved workflow';
const SAVE = 'save (n8n 2.x saves on its own)';

/** A span of time in whole seconds, minutes or hours: "45 seconds", "90 minutes", "1 hour". */
export function span(ms: number): string {
	const seconds = Math.max(1, Math.round(ms / 1000));
	const [value, unit] =
		seconds < 60
			? [seconds, 'second']
			: seconds % 3600 === 0
				? [seconds / 3600, 'hour']
				: [Math.round(seconds / 60), 'minute'];
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

const skipped = (subject: Subject, reason: string, id: string | null = subject.id ?? null) => ({
	skipped: true,
	id,
	reason,
});

export function answerLostItem(subject: Subject) {
	return skipped(
		subject,
		`${capitalize(SERVICE)} already ${subject.done} ${describeSubject(subject)} in an earlier try of this execution, so it was not sent again. Its answer was too large to keep with the execution: find it in ${SERVICE}.`,
	);
}

export function countedAsDoneItem(subject: Subject) {
	return skipped(
		subject,
		`Counted as done, as ${UNCONFIRMED_OPTION} says: an earlier try sent the request to ${subject.verb} ${describeSubject(subject)}, and ${SERVICE} may have carried it out. It was not sent again.`,
	);
}

export function doneBeforeItem(
	subject: Subject,
	known: { at: number; execution: string; id: string | null } | undefined,
	windowMs: number,
	now: number,
) {
	const when = known
		? `${span(now - known.at)} ago${known.execution ? `, in execution ${known.execution}` : ''}`
		: `within the last ${span(windowMs)}`;
	return skipped(
		subject,
		`This node already ${subject.done} ${describeSubject(subject)} ${when}, so it was not sent again (${DONE_KEYS_OPTION}). To send it again, turn on ${REPEAT_OPTION}.`,
		known?.id ?? null,
	);
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

export function unconfirmedFailedText(earlier: FailureText, error: unknown): FailureText {
	const reason = error instanceof Error ? error.message : String(error);
	return {
		message: `Not sent: the expression in ${UNCONFIRMED_OPTION} failed for this item (${reason}). Fix it so that it gives fail, sendAgain or countAsDone for this item, ${SAVE}, and ${RETRY}.`,
		description: `Until it can be read, the item is not sent, as with Fail. What the earlier try left: ${earlier.message}\n\n${earlier.description}`,
	};
}

export function storeFailedText(reason: string): string {
	return `n8n's store for processed items failed (${reason}), so the node could not write down or look up what it sends, and sends nothing it can't account for. Run it again once n8n's database answers again.`;
}

export function lostAnswerText(subject: Subject): string {
	return `The request to ${subject.verb} ${describeSubject(subject)} went out as the node failed, and its answer was lost, so ${SERVICE} may have carried it out.`;
}

export interface StopFacts {
	subject: Subject;
	items: number;
	/** Confirmed items, whatever their place: items sent with the failed one may be done after it. */
	done: Array<{ name?: string; id?: string }>;
	mayHave: number[];
	notDone: number[];
	neverSent: number[];
}

const NAMED = 5;

const itemsWord = (indices: number[]) =>
	indices.length === 1 ? `Item ${indices[0]}` : `Items ${itemNumbers(indices)}`;

/** The paragraph that starts a stopped run's error (On Error = Stop): the way on, then item by item. */
export function stopText(facts: StopFacts, wayOn: { text: string; namesMayHave: boolean }): string {
	const { subject, items, done, mayHave, notDone, neverSent } = facts;
	const sentences = wayOn.text ? [wayOn.text] : [];
	if (done.length > 0) {
		const nouns = items === 1 ? subject.noun : `${subject.noun}s`;
		const names = done
			.map(({ name, id }) => (name === undefined ? id : `"${name}"${id ? ` (${id})` : ''}`))
			.filter((name): name is string => name !== undefined);
		const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
		const named = names.length > 0 ? `: ${names.slice(0, NAMED).join(', ')}${more}` : '';
		sentences.push(
			`${done.length} of ${items} ${nouns} ${was(done.length)} ${subject.done}${named}.`,
		);
	}
	if (mayHave.length > 0 && !wayOn.namesMayHave)
		sentences.push(
			`${itemsWord(mayHave)} may have been ${subject.done}: ${SERVICE} did not confirm ${mayHave.length === 1 ? 'it' : 'them'}.`,
		);
	if (notDone.length > 0)
		sentences.push(`${itemsWord(notDone)} failed and ${was(notDone.length)} not ${subject.done}.`);
	if (neverSent.length > 0)
		sentences.push(`${itemsWord(neverSent)} ${was(neverSent.length)} never sent.`);
	return sentences.join(' ');
}

export function stepsAfterStop(subject: Subject, mayHave: number[]): string {
	const one = mayHave.length === 1;
	const [were, wereNot] = one ? ['it was', 'it was not'] : ['they were', 'they were not'];
	const each = one
		? ''
		: ` Items that differ take an expression, for example {{ $itemIndex === ${mayHave[0]} ? 'countAsDone' : 'sendAgain' }}.`;
	return `To go on: check in ${SERVICE} whether ${one ? `item ${mayHave[0]} was` : `items ${itemNumbers(mayHave)} were`} ${subject.done}, set ${UNCONFIRMED_OPTION} to Count as Done (${were}) or Send Again (${wereNot}), ${SAVE}, and ${RETRY}: nothing ${subject.done} is sent again.${each}`;
}
