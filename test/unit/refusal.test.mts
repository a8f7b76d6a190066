// n8n's refusals (transport/refusal.ts), told by the name or mark of the
// error n8n 2.41.1 throws (NodeApiError around @n8n/backend-network's), never
// by a missing network code: `notActed`, not sent again, its own text, and
// not counted by the breaker.
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
import { decideRetry } from '../../nodes/OutreachSequences/run/loop/retry.ts';
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

const NODE = { id: 'n', name: 'Outreach Sequences', typeVersion: 1, parameters: {} } as INode;

/** What n8n 2.41.1's httpRequestWithAuthentication throws for an error of its HTTP client: `new NodeApiError(node, error)`. */
const thrownByN8n = (error: Error) => new NodeApiError(NODE, error as unknown as JsonObject);
const ipError = new SsrfBlockedIpError('127.0.0.1');
const hostError = new SsrfBlockedHostnameError('metadata.internal');
const blockedIp = thrownByN8n(ipError);
const blockedHost = thrownByN8n(hostError);

const subject = { noun: 'contact', id: 'c-1', verb: 'archive', done: 'archived' };
const baseUrl = 'http://10.0.0.5';

test.each([
	['an address SSRF protection blocks', blockedIp, 'blockedIp'],
	['a host name SSRF protection blocks', blockedHost, 'blockedHostname'],
	[
		'another error n8n marks as never worth a retry',
		thrownByN8n(
			Object.defineProperty(new Error('Not allowed by n8n'), N8N_NON_RETRYABLE, { value: true }),
		),
		'nonRetryable',
	],
])("a refusal is told by n8n's error name or mark: %s", (_, error, kind) => {
	expect(refusalOf(error)).toMatchObject({ kind });
});

test('an unknown error with no code is a network fault the service may have acted on; one with a code stays that fault', () => {
	const unknown = thrownFailure(thrownByN8n(new Error('Something odd happened')));
	expect(unknown).toMatchObject({ kind: 'network', fault: 'other' });
	expect(outcomeOf(unknown)).toBe('mayHaveActed');
	const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
	expect(thrownFailure(thrownByN8n(refused))).toEqual(networkFailure(thrownByN8n(refused)));
});

test('the refused item: notActed, not sent again with every retry left, never counted as sent, a group of its own', () => {
	const failure = thrownFailure(blockedIp);
	expect([failure.kind, outcomeOf(failure)]).toEqual(['refusal', 'notActed']);
	const decision = decideRetry(failure, {
		readOnly: true,
		policy: { enabled: true, maxRetries: 10, maxWaitMs: 60_000 },
		attempts: 1,
		backoffMs: 1000,
		serviceReached: true,
	});
	expect(decision).toEqual({ retry: false, reason: 'refused' });
	const request = { method: 'POST' as const, path: '/v1/contacts/c-1/archive', subject };
	const gaveUp = {
		kind: 'gaveUp' as const,
		request,
		failure,
		sends: 1,
		reason: 'refused' as const,
	};
	expect(failureFacts(gaveUp)).toMatchObject({ networkError: 'blocked', timesSent: 0 });
	expect(failureGroup(gaveUp)).toBe('n8nRefused');
});

test.each([
	[ipError, blockedIp, 'N8N_SSRF_ALLOWED_IP_RANGES'],
	[hostError, blockedHost, 'N8N_SSRF_BLOCKED_HOSTNAMES'],
])(
	"its text: n8n's reason and advice, nothing reached the service, what to set: %s",
	(n8n, error, setting) => {
		const failure = thrownFailure(error);
		const { message, description } = describeFailure(failure, {
			subject,
			baseUrl,
			timeoutMs: 1,
			credentialName: 'C',
		});
		for (const fact of [n8n.message, 'Nothing reached the outreach service', setting])
			expect(message).toContain(fact);
		expect(message).not.toContain('may have carried');
		expect(description).toBe(`${n8n.description} Base URL: ${baseUrl}.`);
	},
);

test('the breaker does not count a refusal: a window of them leaves it closed, and one at the probe neither closes nor trips it', async () => {
	const clock = { now: 0 };
	const sleep = async (ms: number) => void (clock.now += ms);
	const end = async (pace: ServicePace, failure: Failure, count = BREAKER_WINDOW) => {
		for (let index = 0; index < count; index++)
			pace.finished((await pace.turn(() => false, sleep)) as Turn, requestEnd(failure, false));
	};
	const refusals = new ServicePace(1, () => clock.now);
	await end(refusals, thrownFailure(blockedIp));
	expect([refusals.breaker.isClosed, refusals.breaker.opened]).toEqual([true, 0]);
	const pace = new ServicePace(1, () => clock.now);
	await end(pace, { kind: 'network', fault: 'refused' });
	expect(pace.breaker.opened).toBe(1);
	const trips = pace.breaker.tripCount;
	const probe = (await pace.turn(() => false, sleep)) as Turn;
	expect(probe.probe).toBe(true);
	pace.finished(probe, requestEnd(thrownFailure(blockedIp), false));
	const { isClosed, tripCount } = pace.breaker;
	expect([isClosed, tripCount, pace.breaker.gate()]).toEqual([false, trips, { state: 'probe' }]);
});
