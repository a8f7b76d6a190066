/** The paragraph that starts a stopped run's error (On Error = Stop): the way on, then item by item. */
import type { Subject } from '../../helpers/interfaces';
import { itemNumbers } from './itemList';
import { RETRY, SAVE, UNCONFIRMED_OPTION } from './reRunTexts';
import { SERVICE } from './words';

const NAMED = 5;

export interface StopFacts {
	subject: Subject;
	items: number;
	stoppedAt: number;
	/** Confirmed items, whatever their place: items sent with the failed one may be done after it. */
	done: Array<{ name?: string; id?: string }>;
	mayHave: number[];
	notDone: number[];
	neverSent: number[];
}

const itemsWord = (indices: number[]) =>
	indices.length === 1 ? `Item ${indices[0]}` : `Items ${itemNumbers(indices)}`;

function known({ name, id }: { name?: string; id?: string }): string | undefined {
	if (name !== undefined && id !== undefined) return `"${name}" (${id})`;
	return name === undefined ? id : `"${name}"`;
}

function doneSentence(facts: StopFacts): string {
	const { subject, items, done } = facts;
	const nouns = items === 1 ? subject.noun : `${subject.noun}s`;
	const count = `${done.length} of ${items} ${nouns} ${done.length === 1 ? 'was' : 'were'} ${subject.done}`;
	const names = done.map(known).filter((text): text is string => text !== undefined);
	if (names.length === 0) return `${count}.`;
	const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
	return `${count}: ${names.slice(0, NAMED).join(', ')}${more}.`;
}

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

export function stepsAfterStop(subject: Subject, mayHave: number[]): string {
	const [were, wereNot] =
		mayHave.length === 1 ? ['it was', 'it was not'] : ['they were', 'they were not'];
	const each =
		mayHave.length > 1
			? ` Items that differ take an expression, for example {{ $itemIndex === ${mayHave[0]} ? 'countAsDone' : 'sendAgain' }}.`
			: '';
	return `To go on: check in ${SERVICE} whether ${mayHave.length === 1 ? `item ${mayHave[0]} was` : `items ${itemNumbers(mayHave)} were`} ${subject.done}, set ${UNCONFIRMED_OPTION} to Count as Done (${were}) or Send Again (${wereNot}), ${SAVE}, and ${RETRY}: nothing ${subject.done} is sent again.${each}`;
}
