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
const gaveUp = (failure: Failure, sends = 1): ItemFailure =>
	({ kind: 'gaveUp', request, failure, sends, reason: 'notSafe' }) as const;

test.each<[string, Failure, string]>([
	...[400, 401, 403, 404, 409, 422, 429].flatMap(
		(status): Array<[string, Failure, string]> => [
			[`HTTP ${status} to a write`, http(status), 'notActed'],
			[`HTTP ${status} to a read`, http(status, 'GET'), 'notActed'],
		],
	),
	['a 503 with Retry-After (the service asks to wait)', http(503, 'POST', 2000), 'notActed'],
	['a 503 without it (a gateway may have passed the create on)', http(503), 'mayHaveActed'],
	['a rate-limit reset, not Retry-After', { ...http(503), retryAfterMs: 4000 }, 'mayHaveActed'],
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
const broken: ItemFailure = { kind: 'broken', request, error: 0, sends: 2 };
const unknown: ItemFailure = { kind: 'unknownBefore', request, earlier, itemIndex: 1 };
const keptBack: ItemFailure = { kind: 'serviceDown', request, down, sends: 0 };
const [may, not] = ['mayHaveActed', 'notActed'];
test.each<[string, ItemFailure, [number | null, string | null, number, number | null, string]]>([
	['never sent', { kind: 'notSent', error: 0 }, [null, null, 0, null, not]],
	['11 429s, asking 2.5 s', gaveUp(http(429, 'POST', 2500), 11), [429, null, 11, 2.5, not]],
	['a 500', gaveUp(http(500)), [500, null, 1, null, may]],
	['a timeout', gaveUp(network('timeout')), [null, 'timeout', 1, null, may]],
	['3 refused connections', gaveUp(network('refused'), 3), [null, 'refused', 3, null, not]],
	['a send that threw', broken, [null, null, 2, null, may]],
	['an earlier try unknown', unknown, [502, null, 0, null, may]],
	['kept back, never sent', keptBack, [null, null, 0, null, not]],
])(
	'the facts of %s: %j',
	(_, failure, [statusCode, networkError, timesSent, retryAfter, outcome]) => {
		const facts = { statusCode, networkError, timesSent, retryAfterSeconds: retryAfter, outcome };
		expect(failureFacts(failure)).toEqual(facts);
		// The hints count by outcome, and what the breaker kept back apart.
		expect(failureGroup(failure)).toBe(failure.kind === 'serviceDown' ? 'serviceDown' : outcome);
	},
);

test('in a workflow, exactly error and message; as an AI tool, the text only', () => {
	const facts = failureFacts(gaveUp(http(429, 'POST', 1000), 2));
	const [inWorkflow, asTool] = [false, true].map((tool) =>
		failedItemJson('Too many', facts, failedItemShape(tool)),
	);
	expect([inWorkflow, asTool]).toEqual([
		{ error: 'Too many', message: facts },
		{ error: 'Too many' },
	]);
});
