/** The words of a re-run, of the node's memory and of a stopped run: items done before or unknown, and the way on. */
import type { Subject } from '../../helpers/interfaces';
import type { EarlierFailure } from './failedItem';
import type { FailureText } from './words';
import { capitalize, count, describeSubject, duration, itemList, pick, SERVICE } from './words';

export const UNCONFIRMED_OPTION = 'Request Options › Unconfirmed Earlier Try';
export const REPEAT_OPTION = 'Request Options › Repeat Items Done Before';
const RETRY = 'use Executions › Retry with the currently saved workflow';
const SAVE = 'save (n8n 2.x saves on its own)';

/** The way on for items the service may have carried out: check each, then say so in the option. */
function checkSteps(subject: Subject, what: string, indices: number[], again = RETRY): string {
	const [was, it] = indices.length === 1 ? ['was', 'it'] : ['were', 'they'];
	return `Check in ${SERVICE} whether ${what} ${was} ${subject.done}, set ${UNCONFIRMED_OPTION} to Count as Done (${it} ${was}) or Send Again (${it} ${was} not), ${SAVE}, and ${again}: nothing ${subject.done} is sent again. For one item alone: {{ $itemIndex === ${indices[0]} ? 'countAsDone' : 'fail' }}.`;
}

const skipped = (reason: string, id: string | null) => ({ skipped: true, id, reason });

export function answerLostItem(subject: Subject) {
	return skipped(
		`${capitalize(SERVICE)} already ${subject.done} ${describeSubject(subject)} in an earlier try of this execution, so it was not sent again. Its answer was too large to keep with the execution: find it in ${SERVICE}.`,
		subject.id ?? null,
	);
}

export function countedAsDoneItem(subject: Subject) {
	return skipped(
		`Counted as done, as ${UNCONFIRMED_OPTION} says: an earlier try sent the request to ${subject.verb} ${describeSubject(subject)}, and ${SERVICE} may have carried it out. It was not sent again.`,
		subject.id ?? null,
	);
}

export function doneBeforeItem(
	subject: Subject,
	known: { at: number; execution: string; id: string | null } | undefined,
	windowMs: number,
	now: number,
) {
	const when = known
		? `${duration(now - known.at)} ago${known.execution ? `, in execution ${known.execution}` : ''}`
		: `within the last ${duration(windowMs)}`;
	return skipped(
		`This node already ${subject.done} ${describeSubject(subject)} ${when}, so it was not sent again (Request Options › Skip Items Done Before). To send it again, turn on ${REPEAT_OPTION}.`,
		known?.id ?? null,
	);
}

export function unknownBeforeText(
	subject: Subject,
	earlier: EarlierFailure,
	itemIndex: number,
): FailureText {
	const what = describeSubject(subject);
	if (earlier.claimed !== undefined) {
		const who = earlier.claimed
			? `execution ${earlier.claimed}, which is still running,`
			: 'an earlier run of this node';
		return {
			message: `${capitalize(who)} sent the request to ${subject.verb} ${what} within the last ${duration(earlier.windowMs ?? 0)}, and ${SERVICE} never confirmed it (n8n stopped or crashed, or the answer was a failure), so it may have carried it out. It was not sent.`,
			description: `If that execution is still running, let it end, then run this one again: what it confirms is skipped. Otherwise: ${checkSteps(subject, what, [itemIndex], 'run the workflow again')}`,
		};
	}
	return {
		message: `${earlier.message} n8n ran the node again, and it was not sent again: once checked, say what to do in ${UNCONFIRMED_OPTION}.`,
		description: `${checkSteps(subject, what, [itemIndex])}\n\nThe earlier failure: ${earlier.description}`,
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

/** How an item of a stopped run ended: done (by name and ID), or how it was not. */
export type StopEnd =
	| { name?: string; id?: string }
	| 'mayHave'
	| 'notDone'
	| 'neverSent'
	| undefined;

/** The paragraph that starts a stopped run's error (On Error = Stop): the way on, then item by item. */
export function stopText(
	subject: Subject,
	ends: StopEnd[],
	{ readOnly, windowMs }: { readOnly: boolean; windowMs?: number },
): string {
	const which = (end: StopEnd) => ends.flatMap((each, index) => (each === end ? [index] : []));
	const [mayHave, notDone, neverSent] = [which('mayHave'), which('notDone'), which('neverSent')];
	// Confirmed items, whatever their place: items sent with the failed one may be done after it.
	const done = ends.filter((end) => typeof end === 'object');
	const names = done.flatMap(({ name, id }) =>
		name === undefined ? (id ?? []) : `"${name}"${id ? ` (${id})` : ''}`,
	);
	const more = names.length > 5 ? ` and ${names.length - 5} more` : '';
	const sentences = [
		readOnly
			? ''
			: mayHave.length > 0
				? checkSteps(subject, itemList(mayHave), mayHave)
				: windowMs === undefined
					? `Executions › Retry keeps what was already ${subject.done}; running the workflow again ${subject.verb}s it again, as this workflow is not saved.`
					: `Executions › Retry keeps what was already ${subject.done}, and so does running the workflow again within ${duration(windowMs)}.`,
		done.length > 0 &&
			`${done.length} of ${count(ends.length, subject.noun)} ${pick(done.length, 'was', 'were')} ${subject.done}${names.length > 0 ? `: ${names.slice(0, 5).join(', ')}${more}` : ''}.`,
		notDone.length > 0 &&
			`${capitalize(itemList(notDone))} failed and ${pick(notDone.length, 'was', 'were')} not ${subject.done}.`,
		neverSent.length > 0 &&
			`${capitalize(itemList(neverSent))} ${pick(neverSent.length, 'was', 'were')} never sent.`,
	];
	return sentences.filter(Boolean).join(' ');
}
