// A failed item's outcome (did the service act?), decided once where the
// failure is classified, its facts per failure kind, how the hints count it,
// and where n8n keeps the facts: inside `message` beside `error`, the shape
// every n8n version routes to the error output; the text alone for a tool.
import type { ItemFailure } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import {
	failedItemJson,
	failedItemShape,
	failureFacts,
	failureGroup,
} from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import type { Failure, NetworkFaultKind } from '../../nodes/OutreachSequences/transport/failure.ts';
import { outcomeOf } from '../../nodes/OutreachSequences/transport/failure.ts';

const request = {
	method: 'POST' as const,
	path: '/v1/sequences',
	subject: { noun: 'sequence', verb: 'create', done: 'created' },
};
const http = (
	status: number,
	method: 'GET' | 'POST' = 'POST',
	retryAfterMs?: number,
): Failure & { kind: 'http' } => ({
	kind: 'http',
	status,
	method,
	retryAfterMs,
	retryAfter: retryAfterMs !== undefined,
	answer: { statusCode: status, headers: {}, body: {} },
});
const network = (fault: NetworkFaultKind): Failure => ({ kind: 'network', fault, code: 'ECODE' });
const gaveUp = (failure: Failure, sends = 1): ItemFailure => ({
	kind: 'gaveUp',
	request,
	failure,
	sends,
	reason: 'notSafe',
});

test.each<[string, Failure, string]>([
	...[400, 401, 403, 404, 409, 422, 429].flatMap(
		(status): Array<[string, Failure, string]> => [
			[`HTTP ${status} to a write`, http(status), 'notActed'],
			[`HTTP ${status} to a read`, http(status, 'GET'), 'notActed'],
		],
	),
	['a 503 with Retry-After (the service asks to wait)', http(503, 'POST', 2000), 'notActed'],
	['a 503 without it (a gateway may have passed the create on)', http(503), 'mayHaveActed'],
	[
		'a rate-limit reset, which is not Retry-After',
		{ ...http(503), retryAfterMs: 4000 },
		'mayHaveActed',
	],
	['a 303 to a write (it says it made it)', http(303), 'mayHaveActed'],
	['a 301 to a write', http(301), 'mayHaveActed'],
	['a 307 to a read', http(307, 'GET'), 'notActed'],
	['a 503 to a read', http(503, 'GET'), 'notActed'],
	['a 200 holding no result', http(200), 'mayHaveActed'],
	['a 500 to a read', http(500, 'GET'), 'mayHaveActed'],
	['a 502', http(502), 'mayHaveActed'],
	['a refused connection', network('refused'), 'notActed'],
	['a failed DNS lookup', network('dns'), 'notActed'],
	['a rejected certificate', network('tls'), 'notActed'],
	['a timeout', network('timeout'), 'mayHaveActed'],
	['a reset', network('reset'), 'mayHaveActed'],
	['a cancelled request', network('cancelled'), 'mayHaveActed'],
	['another network error', network('other'), 'mayHaveActed'],
])('%s: %s', (_, failure, outcome) => {
	expect(outcomeOf(failure)).toBe(outcome);
});

const earlier = { message: 'm', description: 'd', statusCode: 502, networkError: null };
const down = { failed: 6, of: 6, labels: {} };
type Facts = [number | null, string | null, number, number | null, string];
test.each<[string, ItemFailure, Facts]>([
	['never sent', { kind: 'notSent', error: 0 }, [null, null, 0, null, 'notActed']],
	['11 429s, asking 2.5 s', gaveUp(http(429, 'POST', 2500), 11), [429, null, 11, 2.5, 'notActed']],
	['a 500', gaveUp(http(500)), [500, null, 1, null, 'mayHaveActed']],
	['a timeout', gaveUp(network('timeout')), [null, 'timeout', 1, null, 'mayHaveActed']],
	['3 refused connections', gaveUp(network('refused'), 3), [null, 'refused', 3, null, 'notActed']],
	[
		'a send that threw',
		{ kind: 'broken', request, error: 0, sends: 2 },
		[null, null, 2, null, 'mayHaveActed'],
	],
	[
		'an earlier try unknown',
		{ kind: 'unknownBefore', request, earlier, itemIndex: 1 },
		[502, null, 0, null, 'mayHaveActed'],
	],
	[
		'kept back, never sent',
		{ kind: 'serviceDown', request, down, sends: 0 },
		[null, null, 0, null, 'notActed'],
	],
])('the facts of %s: %j', (_, failure, facts) => {
	const [statusCode, networkError, timesSent, retryAfterSeconds, outcome] = facts;
	expect(failureFacts(failure)).toEqual({
		statusCode,
		networkError,
		timesSent,
		retryAfterSeconds,
		outcome,
	});
	// The hints count by outcome, and what the breaker kept back apart.
	expect(failureGroup(failure)).toBe(failure.kind === 'serviceDown' ? 'serviceDown' : outcome);
});

test('in a workflow, exactly error and message; as an AI tool, the text only', () => {
	const facts = failureFacts(gaveUp(http(429, 'POST', 1000), 2));
	expect(failedItemJson('Too many', facts, failedItemShape(false))).toEqual({
		error: 'Too many',
		message: facts,
	});
	expect(failedItemJson('Too many', facts, failedItemShape(true))).toEqual({ error: 'Too many' });
});
