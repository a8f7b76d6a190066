/**
 * A failed attempt, worked out once, where it happens: its HTTP status and
 * the wait Retry-After asked for, in ms, the kind of network fault, or n8n's
 * refusal to send it (refusal.ts). Retry decides on it; the user's text is
 * written from it when the item gives up.
 */
import type { RequestEnd } from '../run/pace/servicePace';
import type { Refusal } from './refusal';
import { refusalOf } from './refusal';

/** An HTTP answer as n8n's HTTP helpers give it. */
export interface HttpAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

export type NetworkFaultKind =
	| 'timeout'
	| 'refused'
	| 'reset'
	| 'dns'
	| 'tls'
	| 'cancelled'
	| 'other';

export type Failure =
	| {
			kind: 'http';
			status: number;
			/** The request's method: what an answer says of the service's acting depends on it (outcomeOf). */
			method: 'GET' | 'POST';
			/** The wait asked for, in ms: Retry-After's, or the reset its rate-limit headers name; undefined when none. */
			retryAfterMs?: number;
			/** Whether the answer had a Retry-After that is a wait (seconds or a date): a 503 with one is the service's push-back. */
			retryAfter: boolean;
			/** The answer as it came, for the user's text. */
			answer: HttpAnswer;
	  }
	| {
			kind: 'network';
			fault: NetworkFaultKind;
			/** The network code (ECONNRESET, …) and the HTTP library's message, for the user's text. */
			code?: string;
			message?: string;
	  }
	/** n8n would not send it (refusal.ts): nothing went out. */
	| { kind: 'refusal'; refusal: Refusal };

/** Whether the service did not act on a request, or may have. */
export type Outcome = 'notActed' | 'mayHaveActed';

/** Network faults that stop a request before the service can have received it. */
const UNREACHED: ReadonlySet<NetworkFaultKind> = new Set(['refused', 'dns', 'tls']);

/**
 * Whether the service may have acted on a failed attempt, decided here once.
 * It did not when it refused (4xx, 429), asked to wait (503 with
 * Retry-After), or was never reached (a refused connection, DNS, TLS, or
 * n8n's refusal to send). Any other 5xx, a 2xx that is not a JSON object, a
 * timeout or a reset may come after it acted. After a POST (a create or an
 * archive), so may a 3xx (a 303 says it made what it points to) and a 503
 * without Retry-After (a gateway may say so after it passed the request on);
 * after a GET they say it did not (RFC 9110 §15.4, §15.6.4).
 */
export function outcomeOf(failure: Failure): Outcome {
	if (failure.kind === 'refusal') return 'notActed';
	if (failure.kind === 'network') return UNREACHED.has(failure.fault) ? 'notActed' : 'mayHaveActed';
	const { status } = failure;
	const afterPost = failure.method === 'POST';
	if (status >= 300 && status < 400) return afterPost ? 'mayHaveActed' : 'notActed';
	if (status === 503) return afterPost && !failure.retryAfter ? 'mayHaveActed' : 'notActed';
	return status >= 400 && status < 500 ? 'notActed' : 'mayHaveActed';
}

/**
 * The service said "too many" or "unavailable": 429 or 503. Only these set
 * the shared pace, whether or not the item goes again (a 503 without
 * Retry-After to a create is not sent again: outcomeOf).
 */
export function isPushBack(failure: Failure): failure is Failure & { kind: 'http' } {
	return failure.kind === 'http' && (failure.status === 429 || failure.status === 503);
}

/**
 * The label of a failure that got no useful answer from the service, as the
 * breaker counts it (breaker.ts): a network fault, or HTTP 5xx other than
 * 503. Undefined for any other answer, which shows the service is there.
 */
export function noAnswerLabel(failure: Failure): string | undefined {
	if (failure.kind === 'refusal') return undefined;
	if (failure.kind === 'network') return failure.fault === 'cancelled' ? undefined : failure.fault;
	return failure.status >= 500 && failure.status !== 503 ? `HTTP ${failure.status}` : undefined;
}

/**
 * How a failed request ended, as the breaker hears it: a failure's label
 * when it got no useful answer, an answer otherwise; and nothing at all when
 * n8n refused to send it, as the service was not asked.
 */
export function requestEnd(failure: Failure, again: boolean): RequestEnd {
	if (failure.kind === 'refusal') return 'refused';
	const label = noAnswerLabel(failure);
	return label === undefined ? 'answered' : { failedWith: label, again };
}

/**
 * Retry-After as a wait in ms: delay-seconds or an HTTP date (RFC 9110 10.2.3).
 * A date in the past is no wait; anything else is no answer.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
	if (value === undefined) return undefined;
	const text = value.trim();
	if (/^\d+$/.test(text)) return Number(text) * 1000;
	if (!/[a-z]/i.test(text)) return undefined;
	const at = Date.parse(text);
	return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Codes of the network layer, as Node and axios report them. */
const TIMEOUT_CODES = new Set([
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'UND_ERR_CONNECT_TIMEOUT',
]);
const RESET_CODES = new Set([
	'ECONNRESET',
	'EPIPE',
	'ERR_STREAM_PREMATURE_CLOSE',
	'UND_ERR_SOCKET',
]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/;
const NETWORK_CODE = /^[A-Z_]+$/;

/** What kind of network failure a request met, from its code and text. */
export function networkFaultKind(code: string, message: string): NetworkFaultKind {
	if (TIMEOUT_CODES.has(code) || /timeout/i.test(message)) return 'timeout';
	if (code === 'ECONNREFUSED') return 'refused';
	if (RESET_CODES.has(code) || /socket hang up|aborted/i.test(message)) return 'reset';
	if (DNS_CODES.has(code)) return 'dns';
	if (TLS_CODE.test(code)) return 'tls';
	if (code === 'ERR_CANCELED' || /cancel/i.test(message)) return 'cancelled';
	return 'other';
}

/** A request that got no HTTP answer, from the error n8n's HTTP helpers threw: n8n's refusal, or a network fault. */
export function thrownFailure(error: unknown): Failure & { kind: 'network' | 'refusal' } {
	const refusal = refusalOf(error);
	return refusal ? { kind: 'refusal', refusal } : networkFailure(error);
}

/**
 * A network fault, from the error n8n's HTTP helpers threw.
 * The network code is found wherever it is nested: n8n 2.x keeps the HTTP
 * library's error, with its `code`, in the cause chain; n8n 1.x wraps it in
 * a NodeApiError that keeps only the code, as `httpCode`.
 */
export function networkFailure(error: unknown): Failure & { kind: 'network' } {
	const seen = new Set<unknown>();
	let current: unknown = error;
	let message: string | undefined;
	let code: string | undefined;
	let wrappedCode: string | undefined;
	while (typeof current === 'object' && current !== null && !seen.has(current)) {
		seen.add(current);
		const candidate = current as {
			code?: unknown;
			httpCode?: unknown;
			message?: unknown;
			cause?: unknown;
		};
		if (message === undefined && typeof candidate.message === 'string') message = candidate.message;
		if (typeof candidate.code === 'string' && NETWORK_CODE.test(candidate.code)) {
			code = candidate.code;
			if (typeof candidate.message === 'string') message = candidate.message;
			break;
		}
		if (
			wrappedCode === undefined &&
			typeof candidate.httpCode === 'string' &&
			NETWORK_CODE.test(candidate.httpCode)
		) {
			wrappedCode = candidate.httpCode;
		}
		current = candidate.cause;
	}
	code ??= wrappedCode;
	return { kind: 'network', fault: networkFaultKind(code ?? '', message ?? ''), code, message };
}
