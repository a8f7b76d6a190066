// What may be sent again, after how long, and when the node gives up (run/loop/retry.ts).
import type { Failure } from '../../nodes/OutreachSequences/transport/failure.ts';
import type { RetryPolicy } from '../../nodes/OutreachSequences/run/loop/retry.ts';
import {
	backoffMs,
	decideRetry,
	retryPolicyOf,
} from '../../nodes/OutreachSequences/run/loop/retry.ts';

/** A failed answer to a create or an archive (POST) as the transport classifies it: Retry-After already in ms. */
const http = (status: number, retryAfterSeconds?: number): Failure & { kind: 'http' } => ({
	kind: 'http',
	status,
	method: 'POST',
	retryAfterMs: retryAfterSeconds === undefined ? undefined : retryAfterSeconds * 1000,
	retryAfter: retryAfterSeconds !== undefined,
	answer: { statusCode: status, headers: {}, body: '' },
});
const network = (fault: 'refused' | 'reset' | 'timeout' | 'dns' | 'other'): Failure => ({
	kind: 'network',
	fault,
});

const policy: RetryPolicy = { enabled: true, maxRetries: 3, maxWaitMs: 10_000 };
const base = { readOnly: false, policy, attempts: 1, backoffMs: 1200, serviceReached: true };

describe('decideRetry: sent again only where the service did not act, or acting twice does no harm', () => {
	test.each([
		// failure, after a create or archive, after a read-only get
		[http(429), true, true],
		[http(503, 2), true, true],
		// Without Retry-After, a gateway may have passed the create on.
		[http(503), false, true],
		// No redirect is followed.
		[http(303), false, false],
		[http(301), false, false],
		[http(307), false, false],
		[network('refused'), true, true],
		[http(500), false, true],
		[http(502), false, true],
		[http(504), false, true],
		[network('reset'), false, true],
		[network('timeout'), false, true],
		[http(400), false, false],
		[http(404), false, false],
		[http(401), false, false],
		[network('dns'), false, false],
		[network('other'), false, false],
	])('%j: after a create or archive %s, after a get %s', (failure, writes, reads) => {
		const asRead = failure.kind === 'http' ? { ...failure, method: 'GET' as const } : failure;
		const notSafe = { retry: false, reason: 'notSafe' };
		const again = {
			retry: true,
			waitMs: failure.kind === 'http' && failure.retryAfter ? 2000 : 1200,
		};
		expect(decideRetry(failure, base)).toEqual(writes ? again : notSafe);
		expect(decideRetry(asRead, { ...base, readOnly: true })).toEqual(reads ? again : notSafe);
	});

	test('a refused connection is sent again only once the service has answered in this run; other faults do not depend on it', () => {
		const unreached = { ...base, readOnly: true, serviceReached: false };
		expect(decideRetry(network('refused'), unreached)).toEqual({ retry: false, reason: 'notSafe' });
		expect(decideRetry(network('reset'), unreached)).toEqual({ retry: true, waitMs: 1200 });
	});

	// Waits, Max Retries, Max Wait and Wait and Retry through the run loop: loop-faults.test.mts.
	test('a 503 without Retry-After to a create is unsafe, whatever Rate Limit Handling says', () => {
		const off = { ...base, policy: { ...policy, enabled: false } };
		expect(decideRetry(http(503), off)).toEqual({ retry: false, reason: 'notSafe' });
	});
});

test('backoff starts near 1 s and doubles, with jitter, up to 30 s', () => {
	const pairs: Array<[number, number, number]> = [
		[1, 0, 750],
		[1, 1, 1250],
		[2, 0.5, 2000],
		[4, 0.5, 8000],
		[20, 1, 37_500],
		[20, 0, 22_500],
	];
	for (const [failures, random, ms] of pairs) expect(backoffMs(failures, random)).toBe(ms);
});

test('retryPolicyOf: a user value wins; one that is not a count or a number of seconds gives the default', () => {
	const handling = (settings: Record<string, unknown>) =>
		retryPolicyOf({ rateLimitHandling: { settings } });
	expect(handling({ enabled: false, maxRetries: 0, maxWait: 5 })).toEqual({
		enabled: false,
		maxRetries: 0,
		maxWaitMs: 5000,
	});
	expect(handling({ maxRetries: -1, maxWait: 'x' })).toEqual(retryPolicyOf({}));
});
