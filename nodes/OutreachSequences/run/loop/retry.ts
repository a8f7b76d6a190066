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

/** About 1 s, doubling with each failure in a row, at most 30 s, jittered by ±25%. */
export function backoffMs(consecutiveFailures: number, random: number): number {
	return Math.min(30_000, 1000 * 2 ** Math.max(0, consecutiveFailures - 1)) * (0.75 + random / 2);
}

/** True only where the failure proves the service did not act, or acting twice does no harm. */
function safeToResend(failure: Failure, readOnly: boolean, serviceReached: boolean): boolean {
	if (failure.kind === 'http') {
		if (failure.status === 429 || failure.status === 503)
			return readOnly || outcomeOf(failure) === 'notActed';
		return readOnly && [500, 502, 504].includes(failure.status);
	}
	// Refused before any answer: a wrong Base URL or a service down, which the user should hear at once.
	if (failure.kind === 'network' && failure.fault === 'refused') return serviceReached;
	return readOnly && failure.kind === 'network' && ['reset', 'timeout'].includes(failure.fault);
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
	const { policy, readOnly, serviceReached } = situation;
	if (failure.kind === 'refusal') return { retry: false, reason: 'refused' };
	if (!safeToResend(failure, readOnly, serviceReached)) return { retry: false, reason: 'notSafe' };
	if (!policy.enabled) return { retry: false, reason: 'disabled' };
	const asked = failure.kind === 'http' ? failure.retryAfterMs : undefined;
	if (asked !== undefined && asked > policy.maxWaitMs)
		return { retry: false, reason: 'waitTooLong', waitMs: asked };
	if (situation.attempts > policy.maxRetries)
		return { retry: false, reason: 'exhausted', waitMs: asked };
	return { retry: true, waitMs: asked ?? Math.min(situation.backoffMs, policy.maxWaitMs) };
}
