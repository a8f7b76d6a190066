// What may be sent again, after how long, and when the node gives up.
import type { Failure } from '../../nodes/OutreachSequences/transport/failure.ts';
import type { RetryPolicy } from '../../nodes/OutreachSequences/run/loop/retry.ts';
import {
	backoffMs,
	decideRetry,
	isSafeToResend,
	retryPolicyOf,
} from '../../nodes/OutreachSequences/run/loop/retry.ts';
import { notSentAgainText } from '../../nodes/OutreachSequences/run/outcome/texts.ts';

/** A failed answer to a create or an archive (POST) as the transport classifies it: Retry-After already in ms. */
const http = (status: number, retryAfterSeconds?: number): Failure & { kind: 'http' } => ({
	kind: 'http',
	status,
	method: 'POST',
	retryAfterMs: retryAfterSeconds === undefined ? undefined : retryAfterSeconds * 1000,
	retryAfter: retryAfterSeconds !== undefined,
	answer: { statusCode: status, headers: {}, body: '' },
});
/** The same answer to a read (GET). */
const read = (status: number, retryAfterSeconds?: number): Failure & { kind: 'http' } => ({
	...http(status, retryAfterSeconds),
	method: 'GET',
});
const network = (fault: 'refused' | 'reset' | 'timeout' | 'dns' | 'other'): Failure => ({
	kind: 'network',
	fault,
});

describe('isSafeToResend', () => {
	test.each([
		// failure, a create or archive, a read-only get
		[http(429), true, true],
		[http(503, 2), true, true],
		// Without Retry-After, a gateway may have passed the create on.
		[http(503), false, true],
		[http(303), false, false],
		[http(301), false, false],
		[network('refused'), true, true],
		[http(502), false, true],
		[http(504), false, true],
		[network('reset'), false, true],
		[network('timeout'), false, true],
		[http(500), false, true],
		[http(400), false, false],
		[http(404), false, false],
		[http(401), false, false],
		[http(200), false, false],
		[network('dns'), false, false],
		[network('other'), false, false],
	])('%j: after a create or archive %s, after a get %s', (failure, writes, reads) => {
		expect(isSafeToResend(failure, false)).toBe(writes);
		const asRead = failure.kind === 'http' ? { ...failure, method: 'GET' as const } : failure;
		expect(isSafeToResend(asRead, true)).toBe(reads);
	});
});

test('backoff starts near 1 s and doubles, with jitter, up to 30 s', () => {
	expect(backoffMs(1, 0)).toBe(750);
	expect(backoffMs(1, 1)).toBe(1250);
	expect(backoffMs(2, 0.5)).toBe(2000);
	expect(backoffMs(4, 0.5)).toBe(8000);
	expect(backoffMs(20, 1)).toBe(37_500);
	expect(backoffMs(20, 0)).toBe(22_500);
});

test('retryPolicyOf: on by default, 10 retries, 60 s; a user value wins', () => {
	const handling = (settings: Record<string, unknown>) =>
		retryPolicyOf({ rateLimitHandling: { settings } });
	expect(retryPolicyOf({})).toEqual({ enabled: true, maxRetries: 10, maxWaitMs: 60_000 });
	expect(handling({ enabled: false, maxRetries: 3, maxWait: 5 })).toEqual({
		enabled: false,
		maxRetries: 3,
		maxWaitMs: 5000,
	});
	expect(handling({ maxRetries: 0, maxWait: 0 })).toEqual({
		enabled: true,
		maxRetries: 0,
		maxWaitMs: 0,
	});
	expect(handling({ maxRetries: -1, maxWait: 'x' })).toEqual({
		enabled: true,
		maxRetries: 10,
		maxWaitMs: 60_000,
	});
});

describe('decideRetry', () => {
	const policy: RetryPolicy = { enabled: true, maxRetries: 3, maxWaitMs: 10_000 };
	const base = { readOnly: false, policy, attempts: 1, backoffMs: 1200, serviceReached: true };

	test('waits as long as Retry-After says', () => {
		expect(decideRetry(http(429, 4), base)).toEqual({ retry: true, waitMs: 4000 });
	});

	test('backs off without Retry-After, never beyond Max Wait', () => {
		expect(decideRetry(http(429), base)).toEqual({ retry: true, waitMs: 1200 });
		expect(decideRetry(read(503), { ...base, readOnly: true })).toEqual({
			retry: true,
			waitMs: 1200,
		});
		expect(decideRetry(http(429), { ...base, backoffMs: 50_000 })).toEqual({
			retry: true,
			waitMs: 10_000,
		});
	});

	test('a 503 to a create is sent again only when it came with Retry-After', () => {
		expect(decideRetry(http(503, 2), base)).toEqual({ retry: true, waitMs: 2000 });
		expect(decideRetry(http(503), base)).toEqual({ retry: false, reason: 'notSafe' });
		// Whatever Rate Limit Handling says.
		expect(decideRetry(http(503), { ...base, policy: { ...policy, enabled: false } })).toEqual({
			retry: false,
			reason: 'notSafe',
		});
	});

	test('a 3xx is never sent again: the redirect is not followed', () => {
		for (const failure of [http(301), http(303), http(307), read(302)])
			expect(decideRetry(failure, { ...base, readOnly: failure.method === 'GET' })).toEqual({
				retry: false,
				reason: 'notSafe',
			});
	});

	test('a longer wait than Max Wait fails the item, with the wait asked for', () => {
		expect(decideRetry(http(429, 11), base)).toEqual({
			retry: false,
			reason: 'waitTooLong',
			waitMs: 11_000,
		});
	});

	test('after Max Retries retries the item fails', () => {
		expect(decideRetry(http(429, 1), { ...base, attempts: 3 })).toEqual({
			retry: true,
			waitMs: 1000,
		});
		expect(decideRetry(http(429, 1), { ...base, attempts: 4 })).toEqual({
			retry: false,
			reason: 'exhausted',
			waitMs: 1000,
		});
	});

	test('turned off, nothing is sent again', () => {
		expect(decideRetry(http(429), { ...base, policy: { ...policy, enabled: false } })).toEqual({
			retry: false,
			reason: 'disabled',
		});
	});

	test('a create is never sent again after a reset, a timeout or a 500/502/504', () => {
		for (const failure of [network('reset'), network('timeout'), http(500), http(502), http(504)]) {
			expect(decideRetry(failure, base)).toEqual({ retry: false, reason: 'notSafe' });
		}
	});

	test('a get is sent again after a reset', () => {
		expect(decideRetry(network('reset'), { ...base, readOnly: true })).toEqual({
			retry: true,
			waitMs: 1200,
		});
	});

	test('a refused connection is sent again only once the service has answered in this run', () => {
		expect(decideRetry(network('refused'), base)).toEqual({ retry: true, waitMs: 1200 });
		expect(decideRetry(network('refused'), { ...base, serviceReached: false })).toEqual({
			retry: false,
			reason: 'notSafe',
		});
		// Other faults do not depend on it.
		expect(
			decideRetry(network('reset'), { ...base, readOnly: true, serviceReached: false }),
		).toEqual({ retry: true, waitMs: 1200 });
	});
});

describe('notSentAgainText', () => {
	const text = {
		message: 'The outreach service is rate-limiting requests (HTTP 429).',
		description: 'The service answered HTTP 429.',
	};
	const limits = { maxRetries: 10, maxWaitMs: 60_000 };

	test('retries used up: how often it was sent, the limit, and the last wait asked for', () => {
		expect(
			notSentAgainText(text, { reason: 'exhausted', attempts: 11, askedMs: 2000, ...limits }),
		).toEqual({
			message:
				'The outreach service is rate-limiting requests (HTTP 429). The item was sent 11 times, the most that Request Options › Rate Limit Handling › Max Retries per Item (10) allows; the service last asked to wait 2 seconds.',
			description: text.description,
		});
		expect(
			notSentAgainText(text, { reason: 'exhausted', attempts: 1, ...limits, maxRetries: 0 })
				.message,
		).toBe(
			'The outreach service is rate-limiting requests (HTTP 429). The item was sent once, the most that Request Options › Rate Limit Handling › Max Retries per Item (0) allows.',
		);
	});

	test('a wait longer than allowed', () => {
		expect(
			notSentAgainText(text, { reason: 'waitTooLong', attempts: 2, askedMs: 90_500, ...limits })
				.message,
		).toBe(
			'The outreach service is rate-limiting requests (HTTP 429). The item was sent 2 times; the wait it asked for (90.5 seconds) is longer than the 60 seconds that Request Options › Rate Limit Handling › Max Wait (Seconds) allows, so it was not sent again.',
		);
	});

	test("a wait the failure's own text says already is not said again", () => {
		const said = {
			...text,
			message: `${text.message} It asked to wait 90.5 seconds (Retry-After: 91).`,
			waitSaid: true,
		};
		const limited = { attempts: 2, askedMs: 90_500, ...limits };
		expect(notSentAgainText(said, { reason: 'waitTooLong', ...limited }).message).toBe(
			'The outreach service is rate-limiting requests (HTTP 429). It asked to wait 90.5 seconds (Retry-After: 91). The item was sent 2 times; the wait it asked for is longer than the 60 seconds that Request Options › Rate Limit Handling › Max Wait (Seconds) allows, so it was not sent again.',
		);
		expect(notSentAgainText(said, { reason: 'exhausted', ...limited }).message).toMatch(
			/Max Retries per Item \(10\) allows\.$/,
		);
	});

	test('handling turned off', () => {
		expect(notSentAgainText(text, { reason: 'disabled', attempts: 1, ...limits }).message).toBe(
			'The outreach service is rate-limiting requests (HTTP 429). The item was sent once; Request Options › Rate Limit Handling is off, so it was not sent again.',
		);
	});
});
