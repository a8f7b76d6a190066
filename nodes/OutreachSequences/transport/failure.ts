/** A failed attempt, classified once where it happens: an HTTP status, a network fault, or n8n's refusal. */
import type { RequestEnd } from '../run/pace/servicePace';
import type { Refusal } from './refusal';
import { causesOf, refusalOf } from './refusal';

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
			method: 'GET' | 'POST';
			retryAfterMs?: number;
			retryAfter: boolean;
			answer: HttpAnswer;
	  }
	| { kind: 'network'; fault: NetworkFaultKind; code?: string; message?: string }
	| { kind: 'refusal'; refusal: Refusal };

export type Outcome = 'notActed' | 'mayHaveActed';

const UNREACHED: ReadonlySet<NetworkFaultKind> = new Set(['refused', 'dns', 'tls']);

/** After a POST, a 3xx (303) or a 503 without Retry-After may follow an action (RFC 9110 §15.4, §15.6.4). */
export function outcomeOf(failure: Failure): Outcome {
	if (failure.kind === 'refusal') return 'notActed';
	if (failure.kind === 'network') return UNREACHED.has(failure.fault) ? 'notActed' : 'mayHaveActed';
	const { status } = failure;
	const afterPost = failure.method === 'POST';
	if (status >= 300 && status < 400) return afterPost ? 'mayHaveActed' : 'notActed';
	if (status === 503) return afterPost && !failure.retryAfter ? 'mayHaveActed' : 'notActed';
	return status >= 400 && status < 500 ? 'notActed' : 'mayHaveActed';
}

export function isPushBack(failure: Failure): failure is Failure & { kind: 'http' } {
	return failure.kind === 'http' && (failure.status === 429 || failure.status === 503);
}

/** 429 and 503 are left to the pace: the breaker never opens on them. */
export function noAnswerLabel(failure: Failure): string | undefined {
	if (failure.kind === 'refusal') return undefined;
	if (failure.kind === 'network') return failure.fault === 'cancelled' ? undefined : failure.fault;
	return failure.status >= 500 && failure.status !== 503 ? `HTTP ${failure.status}` : undefined;
}

export function requestEnd(failure: Failure, again: boolean): RequestEnd {
	if (failure.kind === 'refusal') return 'refused';
	const label = noAnswerLabel(failure);
	return label === undefined ? 'answered' : { failedWith: label, again };
}

export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
	if (value === undefined) return undefined;
	const text = value.trim();
	if (/^\d+$/.test(text)) return Number(text) * 1000;
	if (!/[a-z]/i.test(text)) return undefined;
	const at = Date.parse(text);
	return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

const TIMEOUT = /^(ECONNABORTED|ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/;
const RESET = /^(ECONNRESET|EPIPE|ERR_STREAM_PREMATURE_CLOSE|UND_ERR_SOCKET)$/;
const DNS = /^(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)$/;
const TLS = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/;
const NETWORK_CODE = /^[A-Z_]+$/;

export function networkFaultKind(code: string, message: string): NetworkFaultKind {
	if (TIMEOUT.test(code) || /timeout/i.test(message)) return 'timeout';
	if (code === 'ECONNREFUSED') return 'refused';
	if (RESET.test(code) || /socket hang up|aborted/i.test(message)) return 'reset';
	if (DNS.test(code)) return 'dns';
	if (TLS.test(code)) return 'tls';
	if (code === 'ERR_CANCELED' || /cancel/i.test(message)) return 'cancelled';
	return 'other';
}

export function thrownFailure(error: unknown): Failure & { kind: 'network' | 'refusal' } {
	const refusal = refusalOf(error);
	return refusal ? { kind: 'refusal', refusal } : networkFailure(error);
}

/** n8n 2.x keeps the HTTP library's error (`code`) in the cause chain; n8n 1.x keeps only `httpCode`. */
export function networkFailure(error: unknown): Failure & { kind: 'network' } {
	const levels = causesOf(error);
	const networkCode = (value: unknown) =>
		typeof value === 'string' && NETWORK_CODE.test(value) ? value : undefined;
	const messageOf = (level?: Record<PropertyKey, unknown>) =>
		typeof level?.message === 'string' ? level.message : undefined;
	const coded = levels.find((level) => networkCode(level.code));
	const code =
		networkCode(coded?.code) ?? levels.map((level) => networkCode(level.httpCode)).find(Boolean);
	const message = messageOf(coded) ?? levels.map(messageOf).find((text) => text !== undefined);
	return { kind: 'network', fault: networkFaultKind(code ?? '', message ?? ''), code, message };
}
