import type { Subject } from './types';
import { isPlainObject } from './validation';

/**
 * Texts for failures, in the user's terms. Pure functions: the transport turns
 * their result into a NodeApiError.
 */
export interface FailureText {
	message: string;
	description: string;
}

export interface HttpAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

const MAX_QUOTED = 2000;
const SERVICE = 'the outreach service';

/** "contact "c-42"", or "the sequence" where the operation has no identifier. */
export function describeSubject(subject: Subject): string {
	return subject.id === undefined ? `the ${subject.noun}` : `${subject.noun} "${subject.id}"`;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A response header, whatever its case; the first value of a list. */
export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
	const value = key === undefined ? undefined : headers[key];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

/**
 * The contract shows no error body, so only a top-level text field that reads
 * as a message is quoted; the whole body is always in the description.
 */
export function serviceMessage(body: unknown): string | undefined {
	if (!isPlainObject(body)) return undefined;
	for (const key of ['message', 'error', 'detail']) {
		const value = body[key];
		if (typeof value === 'string' && value.trim() !== '') {
			const text = value.trim();
			return text.length > 300 ? `${text.slice(0, 300)}…` : text;
		}
	}
	return undefined;
}

function bodyAsText(body: unknown): string {
	if (body === undefined || body === null || body === '') return '';
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}… (${text.length} characters in all)` : text;
}

function answeredWith(answer: HttpAnswer): string {
	const text = bodyAsText(answer.body);
	const type = header(answer.headers, 'content-type');
	const kind = type ? ` (${type})` : '';
	return text ? `The service answered HTTP ${answer.statusCode}${kind}: ${text}` : `The service answered HTTP ${answer.statusCode}${kind} with an empty body.`;
}

function retryAfterText(value: string | undefined): string {
	if (value === undefined || value.trim() === '') return '';
	const trimmed = value.trim();
	if (/^\d+$/.test(trimmed)) return ` It asked to wait ${trimmed} second${trimmed === '1' ? '' : 's'} (Retry-After: ${trimmed}).`;
	return ` It asked to wait until ${trimmed} (Retry-After).`;
}

/** A non-2xx answer, or a 2xx answer whose body is not a JSON object. */
export function describeHttpFailure(answer: HttpAnswer, subject: Subject, credentialName: string): FailureText {
	const status = answer.statusCode;
	const quoted = serviceMessage(answer.body);
	const said = quoted ? `: ${quoted}` : '';
	const description = answeredWith(answer);
	const what = describeSubject(subject);
	const isText = typeof answer.body === 'string' && answer.body.trim() !== '';

	if (status >= 200 && status < 300) {
		return {
			message: `${capitalize(SERVICE)} answered HTTP ${status} to ${subject.verb} ${what}, but not with a JSON object, so there is no result to output.`,
			description,
		};
	}
	if (status >= 300 && status < 400) {
		const location = header(answer.headers, 'location');
		return {
			message: `${capitalize(SERVICE)} redirected the request to ${subject.verb} ${what} (HTTP ${status}${location ? ` to ${location}` : ''}). Redirects are not followed, so the API key only goes to the credential's Base URL: set the Base URL to the service's current address.`,
			description,
		};
	}
	if (status === 401 || status === 403) {
		return {
			message: `${capitalize(SERVICE)} rejected the API key (HTTP ${status})${said}. Check the API Key in the credential "${credentialName}": keys are made in the service's portal under General › Integrations › API Keys.`,
			description,
		};
	}
	if (status === 429) {
		return {
			message: `${capitalize(SERVICE)} is rate-limiting requests (HTTP 429)${said}.${retryAfterText(header(answer.headers, 'retry-after'))}`,
			description,
		};
	}
	if (status >= 500 || isText) {
		const kind = isText ? ', and its answer is not JSON' : '';
		return {
			message: `${capitalize(SERVICE)} failed (HTTP ${status}) to ${subject.verb} ${what}${said}${kind}. ${status >= 500 ? 'Try again later.' : "Check that the credential's Base URL is the address of the service's API."}`,
			description,
		};
	}
	if (status === 404 && subject.id !== undefined) {
		return { message: `${capitalize(what)} was not found (HTTP 404)${said}`, description };
	}
	return {
		message: `${capitalize(SERVICE)} refused to ${subject.verb} ${what} (HTTP ${status})${said}`,
		description,
	};
}

/** Codes of the network layer, as Node and axios report them. */
const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_SOCKET']);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/;

export interface TransportFault {
	code?: string;
	message?: string;
}

export type NetworkFaultKind = 'timeout' | 'refused' | 'reset' | 'dns' | 'tls' | 'cancelled' | 'other';

/** What kind of network failure a request met, from its code and text. */
export function networkFaultKind(fault: TransportFault): NetworkFaultKind {
	const code = fault.code ?? '';
	const raw = fault.message ?? '';
	if (TIMEOUT_CODES.has(code) || /timeout/i.test(raw)) return 'timeout';
	if (code === 'ECONNREFUSED') return 'refused';
	if (RESET_CODES.has(code) || /socket hang up|aborted/i.test(raw)) return 'reset';
	if (DNS_CODES.has(code)) return 'dns';
	if (TLS_CODE.test(code)) return 'tls';
	if (code === 'ERR_CANCELED' || /cancel/i.test(raw)) return 'cancelled';
	return 'other';
}

/**
 * A request that got no HTTP answer at all. The network code goes in the
 * description only: NodeApiError swaps any message that contains one for a
 * generic sentence of its own.
 */
export function describeTransportFailure(
	fault: TransportFault,
	subject: Subject,
	baseUrl: string,
	timeoutMs: number,
): FailureText {
	const code = fault.code ?? '';
	const raw = fault.message ?? '';
	const attempt = `to ${subject.verb} ${describeSubject(subject)}`;
	const description = `Base URL: ${baseUrl}. Network error: ${code || 'none'}${raw ? ` (${raw})` : ''}.`;
	const messages: Record<NetworkFaultKind, () => string> = {
		timeout: () =>
			`${capitalize(SERVICE)} did not answer the request ${attempt} within ${timeoutMs} ms, the limit set in Request Options › Timeout.`,
		refused: () =>
			`Could not connect to ${SERVICE} at ${baseUrl}: the connection was refused. Check the credential's Base URL and that the service is running.`,
		reset: () =>
			`The connection to ${SERVICE} was reset before its answer ${attempt} was complete. The service may or may not have carried it out.`,
		dns: () => `The host "${hostOf(baseUrl)}" in the credential's Base URL could not be found: the DNS lookup failed.`,
		tls: () =>
			`The TLS certificate of ${baseUrl} was not accepted. Turn on Request Options › Ignore SSL Issues only if you trust this server.`,
		cancelled: () => `The request ${attempt} was cancelled because the execution stopped.`,
		other: () => `The request ${attempt} did not reach ${SERVICE} at ${baseUrl}. The network error is in the details.`,
	};
	return { message: messages[networkFaultKind(fault)](), description };
}

/** Why an item that could have been sent again was not. */
export interface GiveUp {
	reason: 'disabled' | 'exhausted' | 'waitTooLong';
	/** How many times the item was sent. */
	attempts: number;
	/** The wait the service last asked for, in ms. */
	askedMs?: number;
	maxRetries: number;
	maxWaitMs: number;
}

const OPTION = 'Request Options › Rate Limit Handling';

function seconds(ms: number): string {
	const value = Math.round(ms / 100) / 10;
	return `${value} second${value === 1 ? '' : 's'}`;
}

function times(count: number): string {
	return count === 1 ? 'once' : `${count} times`;
}

/** The failure's text, plus how often the item was sent and why it was not sent again. */
export function describeGiveUp(text: FailureText, giveUp: GiveUp): FailureText {
	const sent = `The item was sent ${times(giveUp.attempts)}`;
	const sentences: Record<GiveUp['reason'], () => string> = {
		disabled: () => `${sent}; ${OPTION} is off, so it was not sent again.`,
		exhausted: () =>
			`${sent}, the most that ${OPTION} › Max Retries per Item (${giveUp.maxRetries}) allows${
				giveUp.askedMs === undefined ? '' : `; the service last asked to wait ${seconds(giveUp.askedMs)}`
			}.`,
		waitTooLong: () =>
			`${sent}; that wait (${seconds(giveUp.askedMs ?? 0)}) is longer than the ${seconds(giveUp.maxWaitMs)} that ${OPTION} › Max Wait (Seconds) allows, so it was not sent again.`,
	};
	return { message: `${text.message} ${sentences[giveUp.reason]()}`, description: text.description };
}

function hostOf(baseUrl: string): string {
	try {
		return new URL(baseUrl).host;
	} catch {
		return baseUrl;
	}
}
