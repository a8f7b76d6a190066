/**
 * The paragraph an error that stops the run (On Error = Stop) starts with:
 * what the service did before the stop, item by item, and the way on. Items
 * are numbered as n8n numbers them beside an error ("[item 23]"), from 0.
 * Pure functions, written once.
 */
import type { Subject } from '../../describe/types';
import { RETRY, UNCONFIRMED_OPTION } from './reRunTexts';
import { SERVICE } from './words';

/** How many items, or names, a stopped run's error gives before it gives a count. */
const NAMED = 5;

/** What the run did with each item, as the stop found it. */
export interface StopFacts {
	subject: Subject;
	/** How many items the run had. */
	items: number;
	/** The item the run stopped at. */
	stoppedAt: number;
	/** The service's answers are kept with the execution (a retry does not send them again). */
	kept: boolean;
	/** What the service confirmed: each item's name and ID, where it has them. */
	done: Array<{ name?: string; id?: string }>;
	/** Items the service may have carried out without confirming it. */
	mayHave: number[];
	/** Items that failed, and the service did not carry out. */
	notDone: number[];
	/** Items never sent. */
	neverSent: number[];
}

/** [2, 3, 5, 6, 7, 9] as "2, 3, 5 to 7 and 9": runs of three or more as ranges, and a count past NAMED parts. */
export function itemNumbers(indices: number[]): string {
	const runs: number[][] = [];
	for (const index of indices) {
		const last = runs[runs.length - 1];
		if (last && index === last[last.length - 1] + 1) last.push(index);
		else runs.push([index]);
	}
	const parts = runs.flatMap((run) => (run.length >= 3 ? [run] : run.map((index) => [index])));
	const text = (part: number[]) =>
		part.length === 1 ? String(part[0]) : `${part[0]} to ${part[part.length - 1]}`;
	if (parts.length > NAMED) {
		const rest = parts.slice(NAMED).reduce((sum, part) => sum + part.length, 0);
		return `${parts.slice(0, NAMED).map(text).join(', ')} and ${rest} more`;
	}
	const texts = parts.map(text);
	return texts.length > 1
		? `${texts.slice(0, -1).join(', ')} and ${texts[texts.length - 1]}`
		: texts[0];
}

const itemsWord = (indices: number[]) =>
	indices.length === 1 ? `Item ${indices[0]}` : `Items ${itemNumbers(indices)}`;

/** "Q3 outreach" (seq-1), seq-2, or "Q3 outreach": what a confirmed item is known by. */
function known({ name, id }: { name?: string; id?: string }): string | undefined {
	if (name !== undefined && id !== undefined) return `"${name}" (${id})`;
	return name === undefined ? id : `"${name}"`;
}

/** The count of what was done before the stop, and each by name and ID, a few of them. */
function doneSentence(facts: StopFacts): string {
	const { subject, items, stoppedAt, done } = facts;
	const nouns = items === 1 ? subject.noun : `${subject.noun}s`;
	const count = `${done.length} of ${items} ${nouns} ${done.length === 1 ? 'was' : 'were'} ${subject.done} before item ${stoppedAt} failed`;
	const names = done.map(known).filter((text): text is string => text !== undefined);
	if (names.length === 0) return `${count}.`;
	const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
	return `${count}: ${names.slice(0, NAMED).join(', ')}${more}.`;
}

/** What a stopped run says before its details: what was done, what may have been, what was not, and the way on (`wayOn`). */
export function stopText(facts: StopFacts, wayOn: string): string {
	const { subject, mayHave, notDone, neverSent } = facts;
	const sentences = facts.done.length > 0 ? [doneSentence(facts)] : [];
	const them = (indices: number[]) => (indices.length === 1 ? 'it' : 'them');
	if (mayHave.length > 0)
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
	if (facts.kept && facts.done.length > 0)
		sentences.push(
			`The service's answers are kept with this execution: when n8n runs the node again (Executions › Retry, or Retry On Fail), ${facts.done.length === 1 ? 'that one is' : 'those are'} not ${subject.done} again.`,
		);
	if (wayOn) sentences.push(wayOn);
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
	return `To go on: check in ${SERVICE} whether ${mayHave.length === 1 ? `item ${mayHave[0]} was` : `items ${itemNumbers(mayHave)} were`} ${subject.done}, set ${UNCONFIRMED_OPTION} to Count as Done (${were}) or Send Again (${wereNot}), save, and ${RETRY}: nothing ${subject.done} is sent again.${each}`;
}
