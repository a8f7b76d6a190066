// The error a failed item gives up with (run/n8n/itemError.ts), made once from
// its failure: n8n's error class, its HTTP code and item, and the API key
// taken out of all of it. Its words: texts.test.mts and texts-re-run.test.mts.
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Failure } from '../../nodes/OutreachSequences/transport/failure.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import { itemError } from '../../nodes/OutreachSequences/run/n8n/itemError.ts';
import type { ItemFailure } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';

const KEY = 'sk-test-9f8e7d6c5b4a';
const node = { id: 'n', name: 'Outreach Sequences', parameters: {} } as unknown as INode;
const connection = {
	baseUrl: 'http://127.0.0.1:4010',
	credentials: { id: 'c', name: 'Sandbox', type: 'outreachSequencesApi', data: { apiKey: KEY } },
	credentialName: 'Sandbox',
	timeoutMs: 10_000,
	allowUnauthorizedCerts: false,
};
const request = {
	method: 'POST' as const,
	path: '/v1/contacts/c-43/archive',
	subject: { noun: 'contact', id: 'c-43', verb: 'archive', done: 'archived' },
};
const answered = (status: number, body: unknown = { message: `said ${KEY}` }): Failure => {
	const attempt = attemptOf({ statusCode: status, body, headers: {} }, 0, 'POST');
	if (attempt.ok) throw new Error('a success');
	return attempt.failure;
};
const earlier = {
	message: `late, said ${KEY}.`,
	description: KEY,
	statusCode: 500,
	networkError: null,
};
const down = { failed: 6, of: 6, labels: { 'HTTP 502': 6 } };
const gaveUp = (failure: Failure, reason: 'disabled' | 'notSafe') =>
	({ kind: 'gaveUp', request, failure, sends: 1, reason }) as const;
const thrown = new NodeApiError(node, { message: 'no' }, { message: 'no' });

test.each<[string, ItemFailure, typeof NodeApiError | typeof NodeOperationError, string | null]>([
	['Rate Limit Handling off', gaveUp(answered(429), 'disabled'), NodeApiError, '429'],
	['not safe to send again', gaveUp(answered(400), 'notSafe'), NodeApiError, '400'],
	[
		'an earlier try unknown',
		{ kind: 'unknownBefore', request, earlier, itemIndex: 1 },
		NodeOperationError,
		null,
	],
	[
		'kept back by the breaker',
		{ kind: 'serviceDown', request, down, sends: 0 },
		NodeApiError,
		null,
	],
	[
		'stopped by the breaker after a 502',
		{ kind: 'serviceDown', request, down, sends: 2, last: answered(502) },
		NodeApiError,
		'502',
	],
	['never sent: n8n’s error as it was', { kind: 'notSent', error: thrown }, NodeApiError, null],
	[
		'a send that threw',
		{ kind: 'broken', request, error: new Error('boom'), sends: 1 },
		NodeOperationError,
		null,
	],
])('%s: the class, HTTP code and item; no key', (_, failure, kind, httpCode) => {
	const policy = { enabled: true, maxRetries: 10, maxWaitMs: 60_000 };
	const error = itemError(node, 1, failure, connection, policy) as NodeApiError;
	expect(error).toBeInstanceOf(kind);
	expect(error.httpCode ?? null).toBe(httpCode);
	expect(error.context.itemIndex).toBe(1);
	if (failure.kind === 'notSent') expect(error).toBe(thrown);
	expect(JSON.stringify({ ...error, message: error.message })).not.toContain(KEY);
});
