/**
 * The paragraph an error that stops the run (On Error = Stop) starts with,
 * under its message (what failed): the way on, then what the service did,
 * item by item. Items are numbered as n8n numbers them beside an error
 * ("[item 23]"), from 0. Items sent with the one that failed still reached
 * the service, and may have been carried out after it (docs/errors.md), so
 * what was done is counted whatever its place. Pure functions, written once.
 */
import type { Subject } from '../../helpers/interfaces';
import { itemNumbers } from './itemList';
import { RETRY, SAVE, UNCONFIRMED_OPTION } from './reRunTexts';
import { SERVICE } from './words';

/** How many names a stopped run's error gives before it gives a count. */
const NAMED = 5;

/** What the run did with each item, as the stop found it. */
export interface StopFacts {
	subject: Subject;
	/** How many items the run had. */
	items: number;
	/** The item the run stopped at. */
	stoppedAt: number;
	/** What the service confirmed: each item's name and ID, where it has them. */
	done: Array<{ name?: string; id?: string }>;
	/** Items the service may have carried out without confirming it. */
	mayHave: number[];
	/** Items that failed, and the service did not carry out. */
	notDone: number[];
	/** Items never sent. */
	neverSent: number[];
}

const itemsWord = (indices: number[]) =>
	indices.length === 1 ? `Item ${indices[0]}` : `Items ${itemNumbers(indices)}`;

/** "Q3 outreach" (seq-1), seq-2, or "Q3 outreach": what a confirmed item is known by. */
function known({ name, id }: { name?: string; id?: string }): string | undefined {
	if (name !== undefined && id !== undefined) return `"${name}" (${id})`;
	return name === undefined ? id : `"${name}"`;
}

/** The count of what was done, and each by name and ID, a few of them. */
function doneSentence(facts: StopFacts): string {
	const { subject, items, done } = facts;
	const nouns = items === 1 ? subject.noun : `${subject.noun}s`;
	const count = `${done.length} of ${items} ${nouns} ${done.length === 1 ? 'was' : 'were'} ${subject.done}`;
	const names = done.map(known).filter((text): text is string => text !== undefined);
	if (names.length === 0) return `${count}.`;
	const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
	return `${count}: ${names.slice(0, NAMED).join(', ')}${more}.`;
}

/**
 * What a stopped run says before its details: the way on (`wayOn`, its text,
 * and whether it names the items that may have been done), then what was
 * done, what may have been, what was not, and what was never sent.
 */
export function stopText(facts: StopFacts, wayOn: { text: string; namesMayHave: boolean }): string {
	const { subject, mayHave, notDone, neverSent } = facts;
	const sentences = wayOn.text ? [wayOn.text] : [];
	if (facts.done.length > 0) sentences.push(doneSentence(facts));
	const them = (indices: number[]) => (indices.length === 1 ? 'it' : 'them');
	if (mayHave.length > 0 && !wayOn.namesMayHave)
		sentences.push(
			`${itemsWord(mayHave)} may have been ${subject.done}: ${SERVICE} did not confirm ${them(mayHave)}.`,
		);
	if (notDone.length > 0)
		sentences.push(
			`${itemsWord(notDone)} failed and ${notDone.length === 1 ? 'was' : 'were'} not ${subject.done}.`,
		);
	if (neverSent.length > 0)
		sentences.push(
			`${itemsWord(neverSent)} ${neverSent.length === 1 ? 'was' : 'were'} never sent.`,
		);
	return sentences.join(' ');
}

/** The way on after a stop that left items the service may have carried out: check, say, save, retry. */
export function stepsAfterStop(subject: Subject, mayHave: number[]): string {
	const [were, wereNot] =
		mayHave.length === 1 ? ['it was', 'it was not'] : ['they were', 'they were not'];
	const each =
		mayHave.length > 1
			? ` Items that differ take an expression, for example {{ $itemIndex === ${mayHave[0]} ? 'countAsDone' : 'sendAgain' }}.`
			: '';
	return `To go on: check in ${SERVICE} whether ${mayHave.length === 1 ? `item ${mayHave[0]} was` : `items ${itemNumbers(mayHave)} were`} ${subject.done}, set ${UNCONFIRMED_OPTION} to Count as Done (${were}) or Send Again (${wereNot}), ${SAVE}, and ${RETRY}: nothing ${subject.done} is sent again.${each}`;
}
