/**
 * The words every text of the node is made of: a failure's text, what it
 * names, durations, the service and the request's subject. Pure, written once.
 */
import type { Subject } from '../../helpers/interfaces';

/** A failure's text: the message, and the details n8n shows under it. */
export interface FailureText {
	message: string;
	description: string;
	/** The message already says the wait the service asked for (a 429 with Retry-After). */
	waitSaid?: boolean;
}

/** What a failure's text names besides the failure: the request's subject, and the connection's. */
export interface FailureSetting {
	subject: Subject;
	baseUrl: string;
	timeoutMs: number;
	credentialName: string;
}

/** "1 second", "1.5 seconds": every duration the node writes. */
export function duration(ms: number): string {
	const value = Math.round(ms / 100) / 10;
	return `${value} second${value === 1 ? '' : 's'}`;
}

export const SERVICE = 'the outreach service';

/** "contact "c-42"", "the sequence "Spring"" by its name, or "the sequence" where there is neither. */
export function describeSubject(subject: Subject): string {
	if (subject.id !== undefined) return `${subject.noun} "${subject.id}"`;
	return subject.name ? `the ${subject.noun} "${subject.name}"` : `the ${subject.noun}`;
}

export const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "once", "3 times". */
export function times(count: number): string {
	return count === 1 ? 'once' : `${count} times`;
}

/**
 * The most a hint says, in characters: three lines of n8n's output pane at
 * 1440×900 (n8n 2.41.1's editor holds about 65 characters a line there;
 * test/e2e/editor.e2e.mts measures each hint's lines).
 */
export const HINT_BUDGET = 190;

/** The first sentence, then each of the others that still fits in HINT_BUDGET, in order. */
export function fitted(first: string, ...others: Array<string | undefined>): string {
	let text = first;
	for (const sentence of others)
		if (sentence && text.length + 1 + sentence.length <= HINT_BUDGET) text += ` ${sentence}`;
	return text;
}

/** How an item is named beside its number: its name or identifier, cut to 24 characters. */
export function itemLabel(label: string): string {
	return label.length > 24 ? `${label.slice(0, 23)}…` : label;
}
