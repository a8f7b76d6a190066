import { describeHttpFailure, describeTransportFailure, serviceMessage } from '../../nodes/OutreachSequences/shared/errors.ts';
import { redact, transportFaultOf } from '../../nodes/OutreachSequences/shared/transport.ts';

const contact = { noun: 'contact', id: 'c-42', verb: 'archive' };
const sequence = { noun: 'sequence', verb: 'create' };
const answer = (statusCode: number, body: unknown, headers: Record<string, unknown> = {}) => ({ statusCode, body, headers });

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
		expect(describeHttpFailure(answer(404, { message: 'Resource not found' }), contact, 'Cred').message).toBe(
			'Contact "c-42" was not found (HTTP 404): Resource not found',
		);
	});

	test('404 on create has no identifier to name', () => {
		expect(describeHttpFailure(answer(404, ''), sequence, 'Cred').message).toBe(
			'The outreach service refused to create the sequence (HTTP 404)',
		);
	});

	test('401 names the credential', () => {
		expect(describeHttpFailure(answer(401, ''), contact, 'My key').message).toContain('Check the API Key in the credential "My key"');
	});

	test('Retry-After as a date', () => {
		const date = 'Wed, 21 Oct 2026 07:28:00 GMT';
		expect(describeHttpFailure(answer(429, '', { 'retry-after': date }), contact, 'Cred').message).toContain(
			`It asked to wait until ${date} (Retry-After).`,
		);
	});

	test('header names are matched in any case, and lists take their first value', () => {
		expect(describeHttpFailure(answer(302, '', { LOCATION: ['https://elsewhere.example/x'] }), contact, 'Cred').message).toContain(
			'(HTTP 302 to https://elsewhere.example/x)',
		);
	});

	test('the description quotes the answer, shortened', () => {
		const { description } = describeHttpFailure(answer(500, 'y'.repeat(5000), { 'Content-Type': 'text/plain' }), contact, 'Cred');
		expect(description).toMatch(/^The service answered HTTP 500 \(text\/plain\): y+… \(5000 characters in all\)$/);
		expect(description.length).toBeLessThan(2100);
	});
});

describe('describeTransportFailure', () => {
	const at = 'http://127.0.0.1:1';
	test.each<[{ code?: string; message?: string }, string]>([
		[{ code: 'ECONNREFUSED' }, 'Could not connect to the outreach service at http://127.0.0.1:1: the connection was refused.'],
		[{ code: 'ECONNRESET', message: 'socket hang up' }, 'The connection to the outreach service was reset'],
		[{ code: undefined, message: 'socket hang up' }, 'The connection to the outreach service was reset'],
		[{ code: 'ECONNABORTED', message: 'timeout of 2500ms exceeded' }, 'within 2500 ms, the limit set in Request Options › Timeout'],
		[{ code: 'ETIMEDOUT' }, 'within 2500 ms'],
		[{ code: 'EAI_AGAIN' }, 'The host "127.0.0.1:1" in the credential\'s Base URL could not be found: the DNS lookup failed.'],
		[{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'The TLS certificate of http://127.0.0.1:1 was not accepted.'],
		[{ code: 'ERR_CANCELED' }, 'was cancelled because the execution stopped'],
		[{ code: 'EHOSTUNREACH' }, 'did not reach the outreach service at http://127.0.0.1:1. The network error is in the details.'],
	])('%j', (fault, expected) => {
		const text = describeTransportFailure(fault, contact, at, 2500);
		expect(text.message).toContain(expected);
		// NodeApiError replaces messages that contain a network code.
		expect(text.message).not.toMatch(/\bE[A-Z_]{4,}\b/);
		if (fault.code) expect(text.description).toContain(fault.code);
	});
});

test('transportFaultOf finds the network code wherever it is nested', () => {
	const axios = Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' });
	const wrapped = Object.assign(new Error('The connection cannot be established'), { cause: axios });
	expect(transportFaultOf(wrapped)).toEqual({ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND x' });
	expect(transportFaultOf(new Error('plain'))).toEqual({ message: 'plain' });
	const loop: { cause?: unknown; message: string } = { message: 'loop' };
	loop.cause = loop;
	expect(transportFaultOf(loop)).toEqual({ message: 'loop' });
});

test('transportFaultOf reads the code n8n 1.x keeps as httpCode on its NodeApiError', () => {
	// n8n 1.123's httpRequestWithAuthentication wraps the HTTP library's error
	// like this: its own message, the code as httpCode, no cause chain.
	const timeout = Object.assign(new Error('The connection was aborted, perhaps the server is offline'), { httpCode: 'ECONNABORTED' });
	expect(transportFaultOf(timeout)).toEqual({ code: 'ECONNABORTED', message: 'The connection was aborted, perhaps the server is offline' });
	// An HTTP status is not a network code.
	expect(transportFaultOf(Object.assign(new Error('Not found'), { httpCode: '404' })).code).toBeUndefined();
	// A code further down the chain wins over the wrapper's.
	const inner = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
	expect(transportFaultOf(Object.assign(new Error('wrapped'), { httpCode: 'ECONNABORTED', cause: inner })).code).toBe('ECONNRESET');
});

test('redact replaces every occurrence of the key', () => {
	expect(redact('k=abcd1234, again abcd1234', 'abcd1234')).toBe('k=[API key], again [API key]');
	expect(redact('short', 'ab')).toBe('short');
	expect(redact('none', undefined)).toBe('none');
});
