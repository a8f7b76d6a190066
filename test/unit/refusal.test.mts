// n8n's refusals (transport/refusal.ts): a request n8n would not send is told
// by the name of the error n8n throws, or by n8n's mark on it, never by a
// missing network code. It fails its item as `notActed`, is not sent again,
// and the breaker does not count it. The errors are n8n 2.41.1's own: its
// HTTP helper throws `new NodeApiError(node, error)` around the errors of
// @n8n/backend-network (a dependency of n8n-core, which the tests run).
import { createRequire } from 'node:module';

import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import {
	networkFailure,
	outcomeOf,
	requestEnd,
	thrownFailure,
} from '../../nodes/OutreachSequences/transport/failure.ts';
import type { Failure } from '../../nodes/OutreachSequences/transport/failure.ts';
import { N8N_NON_RETRYABLE, refusalOf } from '../../nodes/OutreachSequences/transport/refusal.ts';
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { decideRetry } from '../../nodes/OutreachSequences/run/loop/retry.ts';
import { failedItemsHint } from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import {
	failureFacts,
	failureGroup,
} from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { describeFailure } from '../../nodes/OutreachSequences/run/outcome/texts.ts';
import type { Turn } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import { BREAKER_WINDOW } from '../../nodes/OutreachSequences/run/pace/breaker.ts';

// Its ES entry is its TypeScript source, which is not installed; its CommonJS build is.
const { SsrfBlockedHostnameError, SsrfBlockedIpError } = createRequire(import.meta.url)(
	'@n8n/backend-network',
) as typeof import('@n8n/backend-network');

const NODE: INode = {
	id: 'n',
	name: 'Outreach Sequences',
	type: 'n8n-nodes-outreach-sequences.outreachSequences',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** What n8n 2.41.1's httpRequestWithAuthentication throws for an error of its HTTP client: `new NodeApiError(node, error)`. */
const thrownByN8n = (error: Error) => new NodeApiError(NODE, error as unknown as JsonObject);
const blockedIp = thrownByN8n(new SsrfBlockedIpError('127.0.0.1'));
const blockedHost = thrownByN8n(new SsrfBlockedHostnameError('metadata.internal'));

const subject = { noun: 'contact', id: 'c-1', verb: 'archive', done: 'archived' };
const setting = { subject, baseUrl: 'http://10.0.0.5', timeoutMs: 1000, credentialName: 'C' };

describe('a refusal is told by the name or the mark n8n gives it', () => {
	test("an address SSRF protection blocks: n8n's reason and its administrator's words", () => {
		expect(refusalOf(blockedIp)).toEqual({
			kind: 'blockedIp',
			reason: new SsrfBlockedIpError('127.0.0.1').message,
			advice: new SsrfBlockedIpError('127.0.0.1').description,
		});
	});

	test('a host name SSRF protection blocks', () => {
		expect(refusalOf(blockedHost)).toMatchObject({ kind: 'blockedHostname' });
	});

	test("another error n8n marks as never worth a retry, by n8n's mark alone", () => {
		const marked = Object.defineProperty(new Error('Not allowed by n8n'), N8N_NON_RETRYABLE, {
			value: true,
		});
		expect(refusalOf(thrownByN8n(marked))).toEqual({
			kind: 'nonRetryable',
			reason: 'Not allowed by n8n',
		});
	});

	test('an unknown error with no code is not a refusal: it stays a network fault the service may have acted on', () => {
		const unknown = thrownByN8n(new Error('Something odd happened'));
		expect(refusalOf(unknown)).toBeUndefined();
		const failure = thrownFailure(unknown);
		expect(failure).toMatchObject({ kind: 'network', fault: 'other' });
		expect(outcomeOf(failure)).toBe('mayHaveActed');
	});

	test('a network fault with its code is still that fault', () => {
		const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
		expect(thrownFailure(thrownByN8n(refused))).toEqual(networkFailure(thrownByN8n(refused)));
	});
});

describe("the refused item: not sent, not sent again, n8n's reason", () => {
	const failure = thrownFailure(blockedIp);

	test('its outcome is notActed', () => {
		expect(failure.kind).toBe('refusal');
		expect(outcomeOf(failure)).toBe('notActed');
	});

	test('it is not sent again, even for an operation that changes nothing, with every retry left', () => {
		const decision = decideRetry(failure, {
			readOnly: true,
			policy: { enabled: true, maxRetries: 10, maxWaitMs: 60_000 },
			attempts: 1,
			backoffMs: 1000,
			serviceReached: true,
		});
		expect(decision).toEqual({ retry: false, reason: 'refused' });
	});

	test('its facts: blocked, never sent, notActed; and it is a group of its own', () => {
		const gaveUp = {
			kind: 'gaveUp' as const,
			request: { method: 'POST' as const, path: '/v1/contacts/c-1/archive', subject },
			failure,
			sends: 1,
			reason: 'refused' as const,
		};
		expect(failureFacts(gaveUp)).toEqual({
			statusCode: null,
			networkError: 'blocked',
			timesSent: 0,
			retryAfterSeconds: null,
			outcome: 'notActed',
		});
		expect(failureGroup(gaveUp)).toBe('n8nRefused');
	});

	test("its text: n8n's reason, nothing reached the service, what an administrator can set", () => {
		const reason = new SsrfBlockedIpError('127.0.0.1');
		const { message, description } = describeFailure(failure, setting);
		expect(message).toContain(reason.message.replace(/\.$/, ''));
		expect(message).toContain('Nothing reached the outreach service');
		expect(message).toContain('N8N_SSRF_ALLOWED_IP_RANGES');
		expect(message).not.toContain('may have carried');
		expect(description).toContain(reason.description);
	});

	test('a blocked host name names the host name settings', () => {
		const { message } = describeFailure(thrownFailure(blockedHost), setting);
		expect(message).toContain('N8N_SSRF_BLOCKED_HOSTNAMES');
	});
});

describe('the breaker does not count a refusal', () => {
	const clock = { now: 0 };
	const sleep = async (ms: number) => void (clock.now += ms);

	async function endRequests(pace: ServicePace, failure: Failure, count: number) {
		for (let index = 0; index < count; index++) {
			const turn = (await pace.turn(() => false, sleep)) as Turn;
			pace.finished(turn, requestEnd(failure, false));
		}
	}

	test('a window of refusals leaves it closed, where as many refused connections open it', async () => {
		const refusals = new ServicePace(1, () => clock.now);
		await endRequests(refusals, thrownFailure(blockedIp), BREAKER_WINDOW);
		expect([refusals.breaker.isClosed, refusals.breaker.opened]).toEqual([true, 0]);

		const refused = new ServicePace(1, () => clock.now);
		await endRequests(refused, { kind: 'network', fault: 'refused' }, BREAKER_WINDOW);
		expect(refused.breaker.opened).toBe(1);
	});

	test('n8n refusing the probe neither closes nor trips the breaker: the next request is the probe', async () => {
		const pace = new ServicePace(1, () => clock.now);
		await endRequests(pace, { kind: 'network', fault: 'refused' }, BREAKER_WINDOW);
		const trips = pace.breaker.tripCount;
		const probe = (await pace.turn(() => false, sleep)) as Turn;
		expect(probe.probe).toBe(true);
		pace.finished(probe, requestEnd(thrownFailure(blockedIp), false));
		expect([pace.breaker.isClosed, pace.breaker.tripCount, pace.breaker.gate()]).toEqual([
			false,
			trips,
			{ state: 'probe' },
		]);
	});
});

test('a run n8n refuses: each item goes to n8n once, fails unsent, and the hint counts them as failed', async () => {
	const clock = { now: 0 };
	const sent: string[] = [];
	const pace = new ServicePace(4, () => clock.now);
	const loop = new RunLoop(
		12,
		{
			batching: { groupSize: 4, pauseMs: 0, fixed: false },
			policy: { enabled: true, maxRetries: 10, maxWaitMs: 60_000 },
			readOnly: true,
			stopAtFirstFailure: false,
		},
		{
			pace,
			prepare: (index) => ({ method: 'GET', path: `/v1/use_cases/u-${index}`, subject }),
			send: async (request) => {
				sent.push(request.path);
				return { ok: false, failure: thrownFailure(blockedIp) };
			},
			cancelled: () => false,
			log: () => undefined,
			now: () => clock.now,
			sleep: async (ms) => void (clock.now += ms),
			random: () => 0.5,
		},
	);
	await loop.run();
	expect(sent).toHaveLength(12);
	expect(new Set(sent).size).toBe(12);
	const failures = loop.items.map((item) => (item.state === 'failed' ? item.failure : undefined));
	expect(failures.map((failure) => failure && failureGroup(failure))).toEqual(
		Array(12).fill('n8nRefused'),
	);
	expect(pace.breaker.opened).toBe(0);
	const summary = loop.report.summarize(
		failures.map((failure) => failure && failureGroup(failure)),
	);
	const hint = failedItemsHint(summary, { retryOnFail: false, readOnly: true });
	expect(hint?.message).toMatch(/^12 of 12 items failed: items 0 to 11\. /);
});
