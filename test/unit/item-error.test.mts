// The error a failed item gives up with (run/n8n/itemError.ts), made once
// from its failure: the failure's text, why Request Options › Rate Limit
// Handling did not send it again, an earlier try's words on a re-run, and the
// API key taken out of all of it. The engine suites assert what the run did;
// the words are asserted here.
import type { INode } from 'n8n-workflow';

import type { Failure } from '../../nodes/OutreachSequences/transport/failure.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import { itemError } from '../../nodes/OutreachSequences/run/n8n/itemError.ts';
import type { ItemFailure } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';

const KEY = 'sk-test-9f8e7d6c5b4a';
const node: INode = {
	id: 'outreach',
	name: 'Outreach Sequences',
	type: 'n8n-nodes-outreach-sequences.outreachSequences',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const connection = {
	baseUrl: 'http://127.0.0.1:4010',
	credentials: {
		id: 'c',
		name: 'Outreach sandbox',
		type: 'outreachSequencesApi',
		data: { apiKey: KEY },
	},
	credentialName: 'Outreach sandbox',
	timeoutMs: 10_000,
	allowUnauthorizedCerts: false,
};
const policy = { enabled: true, maxRetries: 10, maxWaitMs: 60_000 };
const request = {
	method: 'POST' as const,
	path: '/v1/contacts/c-43/archive',
	subject: { noun: 'contact', id: 'c-43', verb: 'archive', done: 'archived' },
};
const created = {
	method: 'POST' as const,
	path: '/v1/sequences',
	body: '{"name":"S4"}',
	subject: { noun: 'sequence', name: 'S4', verb: 'create', done: 'created' },
};

/** The failure an answer to a POST is classified as. */
function answered(status: number, body: unknown, headers: Record<string, string> = {}): Failure {
	const attempt = attemptOf({ statusCode: status, body, headers }, 0, 'POST');
	if (attempt.ok) throw new Error('a success');
	return attempt.failure;
}

const errorOf = (failure: ItemFailure, itemIndex = 1) =>
	itemError(node, itemIndex, failure, connection, policy) as Error & {
		description?: string;
		httpCode?: string | null;
		context: { itemIndex?: number };
	};

describe('an item Rate Limit Handling did not send again says why, after the failure', () => {
	const gaveUp = (failure: Failure, reason: 'disabled' | 'waitTooLong', askedMs?: number) =>
		errorOf({ kind: 'gaveUp', request, failure, sends: 1, reason, askedMs });

	test('handling off, after a 429 that asked to wait, and after a 503 that did', () => {
		const limited = answered(429, { message: 'Too many requests' }, { 'Retry-After': '30' });
		expect(gaveUp(limited, 'disabled').message).toBe(
			'The outreach service is rate-limiting requests (HTTP 429): Too many requests. It asked to wait 30 seconds (Retry-After: 30). The item was sent once; Request Options › Rate Limit Handling is off, so it was not sent again.',
		);
		expect(gaveUp(answered(503, '', { 'Retry-After': '30' }), 'disabled').message).toBe(
			'The outreach service failed (HTTP 503) to archive contact "c-43". Try again later. The item was sent once; Request Options › Rate Limit Handling is off, so it was not sent again.',
		);
		expect(gaveUp(answered(429, ''), 'disabled').message).toBe(
			'The outreach service is rate-limiting requests (HTTP 429). The item was sent once; Request Options › Rate Limit Handling is off, so it was not sent again.',
		);
	});

	test('a wait longer than Max Wait: the wait, said once', () => {
		const error = gaveUp(answered(429, '', { 'Retry-After': '3600' }), 'waitTooLong', 3_600_000);
		expect(error.message).toBe(
			'The outreach service is rate-limiting requests (HTTP 429). It asked to wait 3600 seconds (Retry-After: 3600). The item was sent once; the wait it asked for is longer than the 60 seconds that Request Options › Rate Limit Handling › Max Wait (Seconds) allows, so it was not sent again.',
		);
		expect(error).toMatchObject({ httpCode: '429', context: { itemIndex: 1 } });
	});
});

test('a failure not safe to send again is its text alone, with the answer in the details and the API key taken out', () => {
	const echoed = answered(400, { message: `bad key ${KEY}` });
	const error = errorOf({ kind: 'gaveUp', request, failure: echoed, sends: 1, reason: 'notSafe' });
	expect(error.message).toBe(
		'The outreach service refused to archive contact "c-43" (HTTP 400): bad key [API key]',
	);
	expect(error.description).toBe('The service answered HTTP 400: {"message":"bad key [API key]"}');
	expect(JSON.stringify(error)).not.toContain(KEY);
});

describe('an item an earlier try or execution sent without a confirmation, failed again unsent', () => {
	const earlier = {
		message: `The outreach service failed (HTTP 500) to create the sequence "S4": late, said ${KEY}. It may have carried the request out: check before sending it again.`,
		description: 'The service answered HTTP 500: {"message":"late"}',
		statusCode: 500,
		networkError: null,
	};
	const unknown = (more: object) =>
		errorOf(
			{ kind: 'unknownBefore', request: created, earlier: { ...earlier, ...more }, itemIndex: 3 },
			3,
		);
	const steps =
		"Check in the outreach service whether the sequence \"S4\" was created. Then set Request Options › Unconfirmed Earlier Try to Send Again (it was not) or Count as Done (it was), save (n8n 2.x saves on its own), and use Executions › Retry with the currently saved workflow. For this item alone, the option can be the expression {{ $itemIndex === 3 ? 'countAsDone' : 'fail' }}.";

	test('n8n ran the node again: the earlier words, that it was not sent again, and the steps for this item', () => {
		const error = unknown({});
		expect(error.message).toBe(
			'The outreach service failed (HTTP 500) to create the sequence "S4": late, said [API key]. It may have carried the request out: check before sending it again. n8n ran the node again, and it was not sent again: once checked, say what to do in Request Options › Unconfirmed Earlier Try.',
		);
		expect(error.description).toBe(
			`${steps}\n\nThe earlier failure: The service answered HTTP 500: {"message":"late"}`,
		);
		expect(error.context.itemIndex).toBe(3);
	});

	test("claimed in n8n's store within the window and never confirmed: its own words (texts-re-run), on its item", () => {
		const error = unknown({ claimed: '', windowMs: 3_600_000 });
		expect(error.message).toContain('"S4"');
		expect(error.context.itemIndex).toBe(3);
	});
});

test('an item the breaker kept from being sent: why, and its HTTP code when it met an answer', () => {
	const down = { failed: 6, of: 6, labels: { 'HTTP 502': 6 } };
	const never = errorOf({ kind: 'serviceDown', request, down, sends: 0 });
	expect(never.message).toBe(
		'Not sent: the outreach service looked down, so the node stopped sending to it. Send the request to archive contact "c-43" once the service is back.',
	);
	expect(never.httpCode).toBeNull();
	const last = answered(502, { message: 'bad gateway' });
	const again = errorOf({ kind: 'serviceDown', request, down, sends: 2, last });
	expect(again.message).toBe(
		'The outreach service failed (HTTP 502) to archive contact "c-43": bad gateway. It may have carried the request out: check before sending it again. The item was sent 2 times, and not again: the outreach service looked down.',
	);
	expect(again.httpCode).toBe('502');
});
