// The error a failed item gives up with (run/n8n/itemError.ts), made once from
// its failure: the failure's text, why it was not sent again, an earlier try's
// words, its HTTP code and item, and the API key taken out of all of it.
import type { INode } from 'n8n-workflow';

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
const answered = (status: number, body: unknown, headers: Record<string, string> = {}): Failure => {
	const attempt = attemptOf({ statusCode: status, body, headers }, 0, 'POST');
	if (attempt.ok) throw new Error('a success');
	return attempt.failure;
};
const earlier = {
	message: `The outreach service failed (HTTP 500) to archive contact "c-43": late, said ${KEY}.`,
	description: 'The service answered HTTP 500: {"message":"late"}',
	statusCode: 500,
	networkError: null,
};
const down = { failed: 6, of: 6, labels: { 'HTTP 502': 6 } };
const gaveUp = (
	failure: Failure,
	reason: 'disabled' | 'waitTooLong' | 'notSafe',
	askedMs?: number,
) => ({ kind: 'gaveUp', request, failure, sends: 1, reason, askedMs }) as const;

test.each<[string, ItemFailure, string, string | null]>([
	[
		'Rate Limit Handling off: why it was not sent again, after the failure',
		gaveUp(answered(429, { message: 'Slow down' }, { 'Retry-After': '30' }), 'disabled'),
		'The outreach service is rate-limiting requests (HTTP 429): Slow down. It asked to wait 30 seconds (Retry-After: 30). The item was sent once; Request Options › Rate Limit Handling is off, so it was not sent again.',
		'429',
	],
	[
		'a wait longer than Max Wait: the wait, said once',
		gaveUp(answered(429, '', { 'Retry-After': '3600' }), 'waitTooLong', 3_600_000),
		'The outreach service is rate-limiting requests (HTTP 429). It asked to wait 3600 seconds (Retry-After: 3600). The item was sent once; the wait it asked for is longer than the 60 seconds that Request Options › Rate Limit Handling › Max Wait (Seconds) allows, so it was not sent again.',
		'429',
	],
	[
		'not safe to send again: its text alone, the key taken out',
		gaveUp(answered(400, { message: `bad key ${KEY}` }), 'notSafe'),
		'The outreach service refused to archive contact "c-43" (HTTP 400): bad key [API key]',
		'400',
	],
	[
		'n8n ran the node again: the earlier words, and that it was not sent again',
		{ kind: 'unknownBefore', request, earlier, itemIndex: 1 },
		'The outreach service failed (HTTP 500) to archive contact "c-43": late, said [API key]. n8n ran the node again, and it was not sent again: once checked, say what to do in Request Options › Unconfirmed Earlier Try.',
		null,
	],
	[
		'the breaker kept it from being sent',
		{ kind: 'serviceDown', request, down, sends: 0 },
		'Not sent: the outreach service looked down, so the node stopped sending to it. Send the request to archive contact "c-43" once the service is back.',
		null,
	],
	[
		'the breaker stopped it after a failure: its HTTP code',
		{ kind: 'serviceDown', request, down, sends: 2, last: answered(502, { message: 'bad' }) },
		'The outreach service failed (HTTP 502) to archive contact "c-43": bad. It may have carried the request out: check before sending it again. The item was sent 2 times, and not again: the outreach service looked down.',
		'502',
	],
])('%s', (_, failure, message, httpCode) => {
	const policy = { enabled: true, maxRetries: 10, maxWaitMs: 60_000 };
	const error = itemError(node, 1, failure, connection, policy) as Error & {
		httpCode?: string | null;
		context: { itemIndex?: number };
	};
	expect(error.message).toBe(message);
	expect(error.httpCode ?? null).toBe(httpCode);
	expect(error.context.itemIndex).toBe(1);
	expect(JSON.stringify({ ...error, message: error.message })).not.toContain(KEY);
});

test('an unknown item: the steps for it, then the earlier details', () => {
	const error = itemError(
		node,
		3,
		{ kind: 'unknownBefore', request, earlier, itemIndex: 3 },
		connection,
		{ enabled: true, maxRetries: 10, maxWaitMs: 60_000 },
	) as Error & { description?: string };
	expect(error.description).toMatch(/\$itemIndex === 3 \? 'countAsDone' : 'fail'/);
	expect(error.description).toMatch(/\n\nThe earlier failure: The service answered HTTP 500/);
});
