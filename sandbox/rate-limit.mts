// The sandbox's rate limit: a token bucket, and the headers that say it.

/**
 * A token bucket shared by every API route: `rate` requests per second, up to
 * `burst` at once. A request without a token gets 429, with Retry-After in
 * seconds, as an HTTP date, or not at all. The contract shows no limits and no
 * 429; this is the sandbox's own, for trying rate-limit handling.
 */
export interface RateLimit {
	rate: number;
	burst: number;
	retryAfter: 'seconds' | 'date' | 'none';
	/**
	 * Standard rate-limit headers on every API answer, to try the node's use
	 * of them: the IETF draft's `RateLimit` and `RateLimit-Policy`, or the
	 * common `X-RateLimit-*`. Off (none) by default: the contract shows none.
	 */
	headers?: 'ietf' | 'x' | 'none';
}

export class TokenBucket {
	readonly limit: RateLimit;
	private tokens: number;
	private refilledAt = Date.now();

	constructor(limit: RateLimit) {
		this.limit = limit;
		this.tokens = limit.burst;
	}

	/** What is left now: whole tokens, and the ms until the bucket is full again. */
	state(now = Date.now()): { remaining: number; fullInMs: number } {
		const tokens = Math.min(
			this.limit.burst,
			this.tokens + ((now - this.refilledAt) * this.limit.rate) / 1000,
		);
		return {
			remaining: Math.floor(tokens),
			fullInMs: ((this.limit.burst - tokens) * 1000) / this.limit.rate,
		};
	}

	/** undefined when a token was taken; otherwise the ms until one is due. */
	take(): number | undefined {
		const now = Date.now();
		this.tokens = Math.min(
			this.limit.burst,
			this.tokens + ((now - this.refilledAt) * this.limit.rate) / 1000,
		);
		this.refilledAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return undefined;
		}
		return ((1 - this.tokens) * 1000) / this.limit.rate;
	}
}

/**
 * The limit as standard rate-limit headers say it, when the limit asks for
 * them. The bucket's burst is the quota, refilled in burst ÷ rate seconds;
 * what is left is its whole tokens, and the reset is when it is full again.
 */
export function quotaHeaders(
	limit: RateLimit,
	state: { remaining: number; fullInMs: number },
	now = Date.now(),
): Record<string, string> {
	const resetSeconds = Math.ceil(state.fullInMs / 1000);
	const windowSeconds = Math.max(1, Math.ceil(limit.burst / limit.rate));
	if (limit.headers === 'ietf') {
		return {
			'RateLimit-Policy': `"default";q=${limit.burst};w=${windowSeconds}`,
			RateLimit: `"default";r=${state.remaining};t=${resetSeconds}`,
		};
	}
	if (limit.headers === 'x') {
		return {
			'X-RateLimit-Limit': String(limit.burst),
			'X-RateLimit-Remaining': String(state.remaining),
			'X-RateLimit-Reset': String(Math.ceil(now / 1000) + resetSeconds),
		};
	}
	return {};
}

/** The Retry-After header for a wait, in the form the limit asks for. */
export function retryAfterHeader(
	limit: RateLimit,
	waitMs: number,
	now = Date.now(),
): Record<string, string> {
	if (limit.retryAfter === 'none') return {};
	if (limit.retryAfter === 'seconds')
		return { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) };
	return { 'Retry-After': new Date(Math.ceil((now + waitMs) / 1000) * 1000).toUTCString() };
}
