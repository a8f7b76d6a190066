/** The words every text of the node is made of: subjects, counts, durations and lists of items. */
import type { Subject } from '../../helpers/interfaces';

export interface FailureText {
	message: string;
	description: string;
}

export interface FailureSetting {
	subject: Subject;
	baseUrl: string;
	timeoutMs: number;
	credentialName: string;
}

export const SERVICE = 'the outreach service';

export const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const cut = (text: string, most: number, more = '') =>
	text.length > most ? `${text.slice(0, most)}…${more}` : text;

export const pick = (value: number, one: string, many: string) => (value === 1 ? one : many);

export const count = (value: number, one: string, many = `${one}s`) =>
	`${value} ${pick(value, one, many)}`;

/** Tenths of a second under two minutes, then minutes, or hours when whole. */
export function duration(ms: number): string {
	const seconds = ms / 1000;
	if (seconds < 120) return count(Math.round(seconds * 10) / 10, 'second');
	if (seconds % 3600 === 0) return count(seconds / 3600, 'hour');
	return count(Math.round(seconds / 60), 'minute');
}

export function describeSubject(subject: Subject): string {
	if (subject.id !== undefined) return `${subject.noun} "${subject.id}"`;
	return subject.name ? `the ${subject.noun} "${subject.name}"` : `the ${subject.noun}`;
}

/** Items by number as n8n shows them (from 0), the first by its label: runs of three or more as ranges, a count past `most`. */
export function itemList(indices: number[], label?: string, most = 4): string {
	const runs: Array<[number, number]> = [];
	for (const index of indices) {
		const last = runs.at(-1);
		if (last && last[1] === index - 1) last[1] = index;
		else runs.push([index, index]);
	}
	const pairs = (a: number, b: number): Array<[number, number]> =>
		b - a === 1
			? [
					[a, a],
					[b, b],
				]
			: [[a, b]];
	const parts = runs.flatMap(([a, b]) => pairs(a, b)).slice(0, most);
	const texts = parts.map(([first, last]) => (first === last ? `${first}` : `${first} to ${last}`));
	if (label && parts[0][0] === parts[0][1]) texts[0] += ` ("${cut(label, 23)}")`;
	const rest = indices.length - parts.reduce((sum, [first, last]) => sum + last - first + 1, 0);
	if (rest > 0) texts.push(`${rest} more`);
	const list = texts.length > 1 ? `${texts.slice(0, -1).join(', ')} and ${texts.at(-1)}` : texts[0];
	return `${pick(indices.length, 'item', 'items')} ${list}`;
}
