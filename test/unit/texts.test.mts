// The user's texts for failures, written from a failure classified once
// (transport/failure.ts, transport/index.ts), and the key kept out of them.
// Every status and body of the fault matrix: texts-http.test.mts.
import type { Subject } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import { networkFailure } from '../../nodes/OutreachSequences/transport/failure.ts';
import type { Failure } from '../../nodes/OutreachSequences/transport/failure.ts';
import { redact } from '../../nodes/OutreachSequences/helpers/secret.ts';
import {
	pushedBackLogLine,
	quotaLogLine,
	sharedPaceLogLine,
} from '../../nodes/OutreachSequences/run/outcome/logLines.ts';
import {
	describeFailure,
	serviceMessage,
} from '../../nodes/OutreachSequences/run/outcome/texts.ts';
import { duration } from '../../nodes/OutreachSequences/run/outcome/words.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import type { HttpAnswer } from '../../nodes/OutreachSequences/transport/failure.ts';
import { contact, sequence } from './texts-helpers.mts';

const answer = (
	statusCode: number,
	body: unknown,
	headers: Record<string, unknown> = {},
): HttpAnswer => ({ statusCode, body, headers });
const NOW = Date.parse('Wed, 21 Oct 2026 07:27:00 GMT');

/** The failure an answer to a POST (a create or an archive) is classified as, the way the transport does it. */
function failureOf(answer: HttpAnswer): Failure {
	const attempt = attemptOf(answer, NOW, 'POST');
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

	test('a 303 to a create points to what the service made: check before sending it again, the Base URL is right', () => {
		const { message } = describeHttpFailure(
			answer(303, '', { Location: 'https://api.example.com/v1/sequences/s-9' }),
			sequence,
			'Cred',
		);
		expect(message).toBe(
			"The outreach service answered the request to create the sequence by pointing to its result elsewhere (HTTP 303 to https://api.example.com/v1/sequences/s-9), which the node does not follow, so the API key only goes to the credential's Base URL. It may have carried the request out: check before sending it again.",
		);
		expect(describeHttpFailure(answer(301, ''), sequence, 'Cred').message).toBe(
			"The outreach service redirected the request to create the sequence (HTTP 301). Redirects are not followed, so the API key only goes to the credential's Base URL: set the Base URL to the service's current address. It may have carried the request out: check before sending it again.",
		);
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
