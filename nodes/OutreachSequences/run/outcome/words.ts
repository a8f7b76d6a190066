/** The words every text of the node is made of: failure texts, subjects, durations and counts. */
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

export function duration(ms: number): string {
	const value = Math.round(ms / 100) / 10;
	return `${value} second${value === 1 ? '' : 's'}`;
}

export const SERVICE = 'the outreach service';

export function describeSubject(subject: Subject): string {
	if (subject.id !== undefined) return `${subject.noun} "${subject.id}"`;
	return subject.name ? `the ${subject.noun} "${subject.name}"` : `the ${subject.noun}`;
}

export const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function times(count: number): string {
	return count === 1 ? 'once' : `${count} times`;
}

// Three lines of n8n's output pane at 1440×900, ~65 characters each (test/e2e/editor.e2e.mts measures).
export const HINT_BUDGET = 190;

export function fitted(first: string, ...others: Array<string | undefined>): string {
	let text = first;
	for (const sentence of others)
		if (sentence && text.length + 1 + sentence.length <= HINT_BUDGET) text += ` ${sentence}`;
	return text;
}

export function itemLabel(label: string): string {
	return label.length > 24 ? `${label.slice(0, 23)}…` : label;
}
