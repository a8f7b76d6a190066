/** Whether, and after how long, a failed item is sent again on its own (the pacer slows the whole node). */
import { DEFAULT_MAX_RETRIES, DEFAULT_MAX_WAIT_SECONDS } from '../../helpers/defaults';
import type { RequestOptionsValue } from '../../helpers/interfaces';
import type { Failure } from '../../transport/failure';
import { outcomeOf } from '../../transport/failure';
import type { NotSentAgain } from '../outcome/failedItem';

export interface RetryPolicy {
	enabled: boolean;
	maxRetries: number;
	maxWaitMs: number;
}

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

export function retryPolicyOf(options: RequestOptionsValue): RetryPolicy {
	const value = options.rateLimitHandling?.settings;
	const retries = Number(value?.maxRetries);
	const wait = Number(value?.maxWait);
	return {
		enabled: value?.enabled !== false,
		maxRetries: Number.isInteger(retries) && retries >= 0 ? retries : DEFAULT_MAX_RETRIES,
		maxWaitMs: (Number.isFinite(wait) && wait >= 0 ? wait : DEFAULT_MAX_WAIT_SECONDS) * 1000,
	};
}

/** True only where the failure proves the service did not act, or acting twice does no harm. */
export function isSafeToResend(failure: Failure, readOnly: boolean): boolean {
	if (failure.kind === 'refusal') return false;
	if (failure.kind === 'http') {
		if (failure.status === 429 || failure.status === 503)
			return readOnly || outcomeOf(failure) === 'notActed';
		return readOnly && (failure.status === 500 || failure.status === 502 || failure.status === 504);
	}
	if (failure.fault === 'refused') return true;
	return readOnly && (failure.fault === 'reset' || failure.fault === 'timeout');
}

export function backoffMs(consecutiveFailures: number, random: number): number {
	const exponent = Math.max(0, consecutiveFailures - 1);
	return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** exponent) * (0.75 + random / 2);
}

export type RetryDecision =
	| { retry: true; waitMs: number }
	| { retry: false; reason: NotSentAgain; waitMs?: number };

export function decideRetry(
	failure: Failure,
	situation: {
		readOnly: boolean;
		policy: RetryPolicy;
		/** Sends of the item so far, this one included. */
		attempts: number;
		backoffMs: number;
		serviceReached: boolean;
	},
): RetryDecision {
	const { policy } = situation;
	if (failure.kind === 'refusal') return { retry: false, reason: 'refused' };
	if (!isSafeToResend(failure, situation.readOnly)) return { retry: false, reason: 'notSafe' };
	// Refused before any answer: a wrong Base URL or a service down, which the user should hear at once.
	if (failure.kind === 'network' && failure.fault === 'refused' && !situation.serviceReached)
		return { retry: false, reason: 'notSafe' };
	if (!policy.enabled) return { retry: false, reason: 'disabled' };
	const asked = failure.kind === 'http' ? failure.retryAfterMs : undefined;
	if (asked !== undefined && asked > policy.maxWaitMs)
		return { retry: false, reason: 'waitTooLong', waitMs: asked };
	if (situation.attempts > policy.maxRetries)
		return { retry: false, reason: 'exhausted', waitMs: asked };
	return { retry: true, waitMs: asked ?? Math.min(situation.backoffMs, policy.maxWaitMs) };
}
