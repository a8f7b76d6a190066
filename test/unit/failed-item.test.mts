// A failed item's facts, per failure kind, and where n8n keeps them: flat
// beside `error` on the regular output, inside `message` on the error output
// (the one field besides `error` that every n8n 1.x, and 2.x before 2.36, routes there).
import type { Failure, NetworkFaultKind } from '../../nodes/OutreachSequences/transport/failure.ts';
import { outcomeOf } from '../../nodes/OutreachSequences/transport/failure.ts';
import type { ItemFailure } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import {
	failedItemJson,
	failedItemShape,
	failureFacts,
	failureGroup,
} from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';

const request = {
	method: 'POST' as const,
	path: '/v1/sequences',
	body: '{"name":"x"}',
	subject: { noun: 'sequence', verb: 'create', done: 'created' },
};

function gaveUp(failure: Failure, sends: number): ItemFailure {
	return { kind: 'gaveUp', request, failure, sends, reason: 'notSafe' };
}

/** An answer to a POST (a create or an archive), as the transport classifies it; `retryAfterMs` from Retry-After. */
function http(
	status: number,
	retryAfterMs?: number,
	method: 'GET' | 'POST' = 'POST',
): Failure & { kind: 'http' } {
	const retryAfter = retryAfterMs !== undefined;
	const answer = { statusCode: status, headers: {}, body: {} };
	return { kind: 'http', status, method, retryAfterMs, retryAfter, answer };
}

function network(fault: NetworkFaultKind): Failure {
	return { kind: 'network', fault, code: 'ECODE' };
}

describe('the outcome, decided once where the failure is classified: did the service act?', () => {
	test.each([400, 401, 403, 404, 408, 409, 422, 429])('HTTP %i proves it did not', (status) => {
		expect(outcomeOf(http(status))).toBe('notActed');
		expect(outcomeOf(http(status, undefined, 'GET'))).toBe('notActed');
	});

	test('a 503 with Retry-After is the service asking to wait: it did not act', () => {
		expect(outcomeOf(http(503, 2000))).toBe('notActed');
		expect(outcomeOf(http(503, 0))).toBe('notActed');
	});

	test('a 503 without Retry-After may come from a gateway after it passed the create on', () => {
		expect(outcomeOf(http(503))).toBe('mayHaveActed');
		// A rate-limit header's reset is a wait, but not the service's Retry-After.
		expect(outcomeOf({ ...http(503), retryAfterMs: 4000 })).toBe('mayHaveActed');
	});

	test.each([300, 301, 302, 303, 304, 307, 308])(
		'HTTP %i to a create or an archive may come after it acted (a 303 says it made it)',
		(status) => {
			expect(outcomeOf(http(status))).toBe('mayHaveActed');
		},
	);

	test.each([301, 303, 307, 503])('HTTP %i to a read (GET) proves it did not act', (status) => {
		expect(outcomeOf(http(status, undefined, 'GET'))).toBe('notActed');
	});

	test.each([200, 201, 500, 502, 504, 599])('HTTP %i may come after it acted', (status) => {
		expect(outcomeOf(http(status))).toBe('mayHaveActed');
		expect(outcomeOf(http(status, undefined, 'GET'))).toBe('mayHaveActed');
	});

	test.each<[NetworkFaultKind, string]>([
		['refused', 'notActed'],
		['dns', 'notActed'],
		['tls', 'notActed'],
		['timeout', 'mayHaveActed'],
		['reset', 'mayHaveActed'],
		['cancelled', 'mayHaveActed'],
		['other', 'mayHaveActed'],
	])('a network fault "%s": %s', (fault, outcome) => {
		expect(outcomeOf(network(fault))).toBe(outcome);
	});
});

describe('facts per failure kind', () => {
	test('never sent: nothing reached the service', () => {
		expect(failureFacts({ kind: 'notSent', error: new Error('Name is empty') })).toEqual({
			statusCode: null,
			networkError: null,
			timesSent: 0,
			retryAfterSeconds: null,
			outcome: 'notActed',
		});
	});

	test('a 429 sent 11 times that asked for 2.5 s', () => {
		expect(failureFacts(gaveUp(http(429, 2500), 11))).toEqual({
			statusCode: 429,
			networkError: null,
			timesSent: 11,
			retryAfterSeconds: 2.5,
			outcome: 'notActed',
		});
	});

	test('a 500 after one send asked no wait', () => {
		expect(failureFacts(gaveUp(http(500), 1))).toEqual({
			statusCode: 500,
			networkError: null,
			timesSent: 1,
			retryAfterSeconds: null,
			outcome: 'mayHaveActed',
		});
	});

	test('a timeout names the fault and no status', () => {
		expect(failureFacts(gaveUp(network('timeout'), 1))).toEqual({
			statusCode: null,
			networkError: 'timeout',
			timesSent: 1,
			retryAfterSeconds: null,
			outcome: 'mayHaveActed',
		});
	});

	test('a refused connection sent 3 times never reached the service', () => {
		expect(failureFacts(gaveUp(network('refused'), 3))).toMatchObject({
			networkError: 'refused',
			timesSent: 3,
			outcome: 'notActed',
		});
	});

	test('a send that threw may have gone out', () => {
		expect(
			failureFacts({ kind: 'broken', request, error: new Error('bug'), sends: 2 }),
		).toMatchObject({ timesSent: 2, outcome: 'mayHaveActed' });
	});

	test('an item an earlier try sent with an unknown outcome keeps that failure’s facts, unsent now', () => {
		const earlier = { message: 'm', description: 'd', statusCode: 502, networkError: null };
		expect(failureFacts({ kind: 'unknownBefore', request, earlier, itemIndex: 1 })).toEqual({
			statusCode: 502,
			networkError: null,
			timesSent: 0,
			retryAfterSeconds: null,
			outcome: 'mayHaveActed',
		});
	});

	test.each<[string, ItemFailure, string]>([
		['validation', { kind: 'notSent', error: new Error('x') }, 'notSent'],
		['HTTP 404', gaveUp(http(404), 1), 'rejected'],
		['HTTP 429', gaveUp(http(429), 4), 'rejected'],
		['refused', gaveUp(network('refused'), 1), 'unreached'],
		['DNS', gaveUp(network('dns'), 1), 'unreached'],
		['HTTP 502', gaveUp(http(502), 1), 'mayHaveActed'],
		['reset', gaveUp(network('reset'), 1), 'mayHaveActed'],
		[
			'sent by an earlier try, outcome unknown',
			{
				kind: 'unknownBefore',
				request,
				itemIndex: 3,
				earlier: {
					message: 'm',
					description: 'd',
					statusCode: 500,
					networkError: null,
				},
			},
			'unknownBefore',
		],
	])('%s is grouped as %s', (_, failure, group) => {
		expect(failureGroup(failure)).toBe(group);
	});
});

describe('where the facts go', () => {
	const facts = failureFacts(gaveUp(http(429, 1000), 2));

	test('a step of a workflow, in either Continue mode: exactly error and message, the shape every n8n version routes to the error output', () => {
		expect(failedItemShape(false)).toBe('withFacts');
		const json = failedItemJson('Too many', facts, 'withFacts');
		expect(Object.keys(json).sort()).toEqual(['error', 'message']);
		expect(json).toEqual({
			error: 'Too many',
			message: {
				statusCode: 429,
				networkError: null,
				timesSent: 2,
				retryAfterSeconds: 1,
				outcome: 'notActed',
			},
		});
	});

	test('as an AI tool: the text only', () => {
		expect(failedItemShape(true)).toBe('textOnly');
		expect(failedItemJson('Too many', facts, 'textOnly')).toEqual({ error: 'Too many' });
	});
});
