/**
 * The words every text of the node is made of: a failure's text, what it
 * names, durations, the service and the request's subject. Pure, written once.
 */
import type { Subject } from '../../describe/types';

/** A failure's text: the message, and the details n8n shows under it. */
export interface FailureText {
	message: string;
	description: string;
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
