/**
 * When an item is sent again on its own, and after how long. Pure functions:
 * the executor asks them, and the pacer (pacer.ts) slows the whole node down.
 *
 * The rule: a request is sent again only where the answer proves the service
 * did not act on it (429, 503 with Retry-After, a refused connection), or
 * where acting twice does no harm (a read-only operation after a 500, 502,
 * 503, 504, a reset or a timeout). A create is never sent again after a
 * timeout, a reset, a 500/502/504 or a 503 without Retry-After (outcomeOf).
 * A refused connection is retried only once the service has answered in this
 * run: before that it means a wrong Base URL or a service that is down, and
 * the user should hear so at once, not after minutes of backoff.
 */
import { DEFAULT_MAX_RETRIES, DEFAULT_MAX_WAIT_SECONDS } from '../../helpers/defaults';
import type { RequestOptionsValue } from '../../helpers/names';
import { Field } from '../../helpers/names';
import type { Failure } from '../../transport/failure';
import { outcomeOf } from '../../transport/failure';
import type { NotSentAgain } from '../outcome/failedItem';

/** The user's Request Options › Rate Limit Handling, with its defaults filled in. */
export interface RetryPolicy {
	enabled: boolean;
	/** How many times one item may be sent again. */
	maxRetries: number;
	/** The longest single wait the node accepts, in ms. */
	maxWaitMs: number;
}

/** Backoff without Retry-After: about 1 s, doubling, and never more than this. */
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

export function retryPolicyOf(options: RequestOptionsValue): RetryPolicy {
	const value = options[Field.rateLimitHandling]?.[Field.rateLimitSettings];
	const retries = Number(value?.[Field.maxRetries]);
	const wait = Number(value?.[Field.maxWait]);
	return {
		enabled: value?.[Field.retryEnabled] !== false,
		maxRetries: Number.isInteger(retries) && retries >= 0 ? retries : DEFAULT_MAX_RETRIES,
		maxWaitMs: (Number.isFinite(wait) && wait >= 0 ? wait : DEFAULT_MAX_WAIT_SECONDS) * 1000,
	};
}

/** Whether this failure proves the service did not act, or acting twice is harmless; a refusal is not sent again at all. */
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

/** Exponential backoff with jitter: near 1 s after the first failure, then 2 s, 4 s, … */
export function backoffMs(consecutiveFailures: number, random: number): number {
	const exponent = Math.max(0, consecutiveFailures - 1);
	return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** exponent) * (0.75 + random / 2);
}

export type RetryDecision =
	| { retry: true; waitMs: number }
	| { retry: false; reason: NotSentAgain; waitMs?: number };

/**
 * Send this item again, and after how long? `attempts` counts the sends of the
 * item so far, this one included.
 */
export function decideRetry(
	failure: Failure,
	situation: {
		readOnly: boolean;
		policy: RetryPolicy;
		attempts: number;
		backoffMs: number;
		/** Whether the service has answered any request of this run. */
		serviceReached: boolean;
	},
): RetryDecision {
	const { policy } = situation;
	// n8n would refuse it again, whatever the settings (refusal.ts).
	if (failure.kind === 'refusal') return { retry: false, reason: 'refused' };
	if (!isSafeToResend(failure, situation.readOnly)) return { retry: false, reason: 'notSafe' };
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
