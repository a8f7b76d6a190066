// The user's texts for failures, written from a failure classified once
// (run/http/failure.ts, run/http/transport.ts), and the key kept out of them.
import type { Subject } from '../../nodes/OutreachSequences/describe/types.ts';
import { networkFailure } from '../../nodes/OutreachSequences/run/http/failure.ts';
import type { Failure } from '../../nodes/OutreachSequences/run/http/failure.ts';
import { redact } from '../../nodes/OutreachSequences/run/n8n/itemError.ts';
import {
	carriedOutBeforeText,
	doneBeforeStopText,
	failedBeforeStopText,
} from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';
import {
	pushedBackLogLine,
	quotaLogLine,
	sharedPaceLogLine,
} from '../../nodes/OutreachSequences/run/outcome/logLines.ts';
import { serviceDownText } from '../../nodes/OutreachSequences/run/outcome/serviceDownTexts.ts';
import {
	describeFailure,
	serviceMessage,
} from '../../nodes/OutreachSequences/run/outcome/texts.ts';
import { duration } from '../../nodes/OutreachSequences/run/outcome/words.ts';
import { attemptOf } from '../../nodes/OutreachSequences/run/http/transport.ts';
import type { HttpAnswer } from '../../nodes/OutreachSequences/run/http/failure.ts';

const contact = { noun: 'contact', id: 'c-42', verb: 'archive', done: 'archived' };
const sequence = { noun: 'sequence', verb: 'create', done: 'created' };
const answer = (
	statusCode: number,
	body: unknown,
	headers: Record<string, unknown> = {},
): HttpAnswer => ({ statusCode, body, headers });
const NOW = Date.parse('Wed, 21 Oct 2026 07:27:00 GMT');

/** The failure an answer is classified as, the way the transport does it. */
function failureOf(answer: HttpAnswer): Failure {
	const attempt = attemptOf(answer, NOW);
	if (attempt.ok) throw new Error('a success');
	return attempt.failure;
}

function describeHttpFailure(answer: HttpAnswer, subject: Subject, credentialName: string) {
	return describeFailure(failureOf(answer), {
		subject,
		credentialName,
		baseUrl: 'http://127.0.0.1:1',
		timeoutMs: 2500,
	});
}

describe('serviceMessage', () => {
	test.each([
		[{ message: 'Resource not found' }, 'Resource not found'],
		[{ error: 'nope', message: '' }, 'nope'],
		[{ detail: '  spaced  ' }, 'spaced'],
		[{ error: { message: 'nested' } }, undefined],
		[{ code: 42 }, undefined],
		['Resource not found', undefined],
		[['message'], undefined],
		[null, undefined],
	])('%j -> %j', (body, expected) => {
		expect(serviceMessage(body)).toBe(expected);
	});

	test('a long message is shortened', () => {
		expect(serviceMessage({ message: 'x'.repeat(1000) })).toHaveLength(301);
	});
});

describe('describeHttpFailure', () => {
	test('404 names the thing that was not found', () => {
		expect(
			describeHttpFailure(answer(404, { message: 'Resource not found' }), contact, 'Cred').message,
		).toBe('Contact "c-42" was not found (HTTP 404): Resource not found');
	});

	test('404 on create has no identifier to name', () => {
		expect(describeHttpFailure(answer(404, ''), sequence, 'Cred').message).toBe(
			'The outreach service refused to create the sequence (HTTP 404)',
		);
	});

	test('401 names the credential', () => {
		expect(describeHttpFailure(answer(401, ''), contact, 'My key').message).toContain(
			'Check the API Key in the credential "My key"',
		);
	});

	test('Retry-After as a date', () => {
		const date = 'Wed, 21 Oct 2026 07:28:00 GMT';
		expect(
			describeHttpFailure(answer(429, '', { 'retry-after': date }), contact, 'Cred').message,
		).toContain(`It asked to wait until ${date} (Retry-After).`);
	});

	test('header names are matched in any case, and lists take their first value', () => {
		expect(
			describeHttpFailure(
				answer(302, '', { LOCATION: ['https://elsewhere.example/x'] }),
				contact,
				'Cred',
			).message,
		).toContain('(HTTP 302 to https://elsewhere.example/x)');
	});

	test('the description quotes the answer, shortened', () => {
		const { description } = describeHttpFailure(
			answer(500, 'y'.repeat(5000), { 'Content-Type': 'text/plain' }),
			contact,
			'Cred',
		);
		expect(description).toMatch(
			/^The service answered HTTP 500 \(text\/plain\): y+… \(5000 characters in all\)$/,
		);
		expect(description.length).toBeLessThan(2100);
	});
});

describe('a network failure', () => {
	const at = 'http://127.0.0.1:1';
	test.each<[{ code?: string; message?: string }, string]>([
		[
			{ code: 'ECONNREFUSED' },
			'Could not connect to the outreach service at http://127.0.0.1:1: the connection was refused.',
		],
		[
			{ code: 'ECONNRESET', message: 'socket hang up' },
			'The connection to the outreach service was reset',
		],
		[
			{ code: undefined, message: 'socket hang up' },
			'The connection to the outreach service was reset',
		],
		[
			{ code: 'ECONNABORTED', message: 'timeout of 2500ms exceeded' },
			'within 2500 ms, the limit set in Request Options › Timeout',
		],
		[{ code: 'ETIMEDOUT' }, 'within 2500 ms'],
		[
			{ code: 'EAI_AGAIN' },
			'The host "127.0.0.1:1" in the credential\'s Base URL could not be found: the DNS lookup failed.',
		],
		[
			{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
			'The TLS certificate of http://127.0.0.1:1 was not accepted.',
		],
		[{ code: 'ERR_CANCELED' }, 'was cancelled because the execution stopped'],
		[
			{ code: 'EHOSTUNREACH' },
			'failed on the network before the outreach service at http://127.0.0.1:1 answered. The network error is in the details.',
		],
	])('%j', (fault, expected) => {
		const text = describeFailure(networkFailure(fault), {
			subject: contact,
			baseUrl: at,
			timeoutMs: 2500,
			credentialName: 'Cred',
		});
		expect(text.message).toContain(expected);
		// NodeApiError replaces messages that contain a network code.
		expect(text.message).not.toMatch(/\bE[A-Z_]{4,}\b/);
		if (fault.code) expect(text.description).toContain(fault.code);
	});
});

test('one duration format for every text and log line', () => {
	expect([0, 1000, 1500, 60_000, 90_449].map(duration)).toEqual([
		'0 seconds',
		'1 second',
		'1.5 seconds',
		'60 seconds',
		'90.4 seconds',
	]);
});

test('the log line when the node starts waiting says why, for how long, and how it goes on', () => {
	expect(pushedBackLogLine(failureOf(answer(429, '', { 'Retry-After': '1' })), 1000, 238, 16)).toBe(
		'Outreach Sequences: the service pushed back (HTTP 429, Retry-After: 1); no new request starts for 1 second, then 238 items go on at up to 16 in flight',
	);
	expect(
		pushedBackLogLine(
			networkFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })),
			2500,
			1,
			1,
		),
	).toBe(
		'Outreach Sequences: the service pushed back (network: refused); no new request starts for 2.5 seconds, then 1 item goes on at up to 1 in flight',
	);
});

test('the log lines of a used-up quota and of an execution that starts behind a pace others learned name no key', () => {
	expect(quotaLogLine({ remaining: 2, resetMs: 1000 }, 12, 4)).toBe(
		"Outreach Sequences: the service's rate-limit headers say the requests under way will use up its quota (2 left, refilled in 1 second); no new request starts for 1 second, then 12 items go on at up to 4 in flight",
	);
	expect(quotaLogLine({ remaining: 0, resetMs: 2000 }, 12, 4)).toBe(
		"Outreach Sequences: the service's rate-limit headers say its quota is used up (0 left, refilled in 2 seconds); no new request starts for 2 seconds, then 12 items go on at up to 4 in flight",
	);
	expect(sharedPaceLogLine('http://127.0.0.1:4010/v1', 1500, 4.26, 2)).toBe(
		'Outreach Sequences: this execution waits its turn at the pace that http://127.0.0.1:4010/v1 set for this n8n process: no new request starts for 1.5 seconds, then about 4.3 requests per second, up to 2 in flight',
	);
	expect(sharedPaceLogLine('http://127.0.0.1:4010/v1', 0, Infinity, 8)).toBe(
		'Outreach Sequences: this execution waits its turn at the pace that http://127.0.0.1:4010/v1 set for this n8n process: up to 8 in flight',
	);
});

test('redact replaces every occurrence of the key', () => {
	expect(redact('k=abcd1234, again abcd1234', 'abcd1234')).toBe('k=[API key], again [API key]');
	expect(redact('short', 'ab')).toBe('short');
	expect(redact('none', undefined)).toBe('none');
});

describe('what a stopped run says it did before it stopped', () => {
	test("the count in the operation's words, that n8n will not do them again, and a few IDs, then a count", () => {
		const ids = Array.from({ length: 34 }, (_, index) => `seq-${index + 1}`);
		expect(doneBeforeStopText({ subject: sequence, count: 34, ids }, 40, 23, true)).toBe(
			"34 of 40 sequences were created before item 23 failed. The service's answers are kept with this execution: when n8n runs the node again (Executions › Retry, or Retry On Fail), those are not created again. IDs: seq-1, seq-2, seq-3, seq-4, seq-5 and 29 more.",
		);
	});

	test('one item, no IDs, nothing kept (an operation that changes nothing)', () => {
		expect(
			doneBeforeStopText(
				{ subject: { noun: 'use case', verb: 'get', done: 'fetched' }, count: 1, ids: [] },
				2,
				1,
				false,
			),
		).toBe('1 of 2 use cases was fetched before item 1 failed.');
		expect(
			doneBeforeStopText({ subject: contact, count: 2, ids: ['c-1', 'c-2'] }, 3, 0, true),
		).toBe(
			"2 of 3 contacts were archived before item 0 failed. The service's answers are kept with this execution: when n8n runs the node again (Executions › Retry, or Retry On Fail), those are not archived again. IDs: c-1, c-2.",
		);
	});

	test('how many items failed before the stop, numbered as n8n numbers them beside the error, from 0', () => {
		expect(failedBeforeStopText([3])).toBeUndefined();
		expect(failedBeforeStopText([3, 6])).toBe('2 items failed: items 3, 6.');
		expect(failedBeforeStopText([0, 1, 2, 3, 4, 5, 9])).toBe(
			'7 items failed: items 0, 1, 2, 3, 4 and 2 more.',
		);
	});

	test('an item carried out in an earlier try whose answer was too large to keep', () => {
		expect(carriedOutBeforeText(contact, false, 0).message).toBe(
			'The outreach service already archived contact "c-42" in an earlier try of this execution, so it was not sent again. Its answer was too large to keep with the execution, so there is no result to output.',
		);
	});
});

describe('an item the breaker kept from being sent', () => {
	const down = { failed: 6, of: 6, labels: { timeout: 4, 'HTTP 502': 2 } };

	test('never sent: why, in counts of what failed, and that it can be sent again later', () => {
		expect(serviceDownText(down, 0, undefined, sequence).message).toBe(
			'Not sent: the last 6 requests to the outreach service failed with no useful answer (4 timeouts and 2 answers with HTTP 502), the last of them a probe sent after a 1 second pause. The request to create the sequence was not sent; send it again once the service is back.',
		);
	});

	test('sent before: its own failure first, then why it was not sent again', () => {
		const last = {
			message: 'The outreach service failed (HTTP 502) to get use case "uc-1".',
			description: 'details',
		};
		const text = serviceDownText({ failed: 5, of: 8, labels: { reset: 5 } }, 1, last, {
			noun: 'use case',
			id: 'uc-1',
			verb: 'get',
			done: 'fetched',
		});
		expect(text).toEqual({
			message:
				'The outreach service failed (HTTP 502) to get use case "uc-1". The item was sent once; it was not sent again: 5 of the last 8 requests to the outreach service failed with no useful answer (5 reset connections), the last of them a probe sent after a 1 second pause.',
			description: 'details',
		});
	});
});
