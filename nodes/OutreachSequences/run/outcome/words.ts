/** The words every text of the node is made of: failure texts, subjects, durations, counts and item lists. */
import type { Subject } from '../../helpers/interfaces';

export interface FailureText {
	message: string;
	description: string;
	waitSaid?: boolean;
}

export interface FailureSetting {
	subject: Subject;
	baseUrl: string;
	timeoutMs: number;
	credentialName: string;
}

export const SERVICE = 'the outreach service';

export function duration(ms: number): string {
	const value = Math.round(ms / 100) / 10;
	return `${value} second${value === 1 ? '' : 's'}`;
}

export function describeSubject(subject: Subject): string {
	if (subject.id !== undefined) return `${subject.noun} "${subject.id}"`;
	return subject.name ? `the ${subject.noun} "${subject.name}"` : `the ${subject.noun}`;
}

export const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const times = (count: number) => (count === 1 ? 'once' : `${count} times`);

export const count = (value: number, one: string, many: string) =>
	`${value} ${value === 1 ? one : many}`;

export const them = (value: number) => (value === 1 ? 'it' : 'them');

export const was = (value: number) => (value === 1 ? 'was' : 'were');

// Three lines of n8n's output pane at 1440×900, ~65 characters each (test/e2e/editor.e2e.mts measures).
export const HINT_BUDGET = 190;

export function fitted(first: string, ...others: Array<string | undefined>): string {
	let text = first;
	for (const sentence of others)
		if (sentence && text.length + 1 + sentence.length <= HINT_BUDGET) text += ` ${sentence}`;
	return text;
}

/** Item numbers as n8n shows them beside an error (from 0): runs of three or more as ranges, a count past `parts`. */
export function itemNumbers(indices: number[], parts = 5): string {
	const runs: number[][] = [];
	for (const index of indices) {
		const last = runs.at(-1);
		if (last && index === last[last.length - 1] + 1) last.push(index);
		else runs.push([index]);
	}
	const all = runs.flatMap((run) => (run.length >= 3 ? [run] : run.map((index) => [index])));
	const texts = all
		.slice(0, parts)
		.map((run) => (run.length === 1 ? `${run[0]}` : `${run[0]} to ${run.at(-1)}`));
	const rest = all.slice(parts).reduce((sum, run) => sum + run.length, 0);
	if (rest > 0) return `${texts.join(', ')} and ${rest} more`;
	return texts.length > 1 ? `${texts.slice(0, -1).join(', ')} and ${texts.at(-1)}` : texts[0];
}

/** Items as the hints name them: the first by its label where it has one. */
export function namedItems(indices: number[], labels: Record<number, string>): string {
	const [first, ...rest] = indices;
	const label = labels[first];
	if (label === undefined)
		return rest.length === 0 ? `item ${first}` : `items ${itemNumbers(indices, 3)}`;
	const head = `${first} ("${label.length > 24 ? `${label.slice(0, 23)}…` : label}")`;
	if (rest.length === 0) return `item ${head}`;
	const tail = itemNumbers(rest, 2);
	return `items ${head}${tail.includes(' and ') ? ', ' : ' and '}${tail}`;
}
