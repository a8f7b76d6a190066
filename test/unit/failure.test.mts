// A failed attempt is classified once, where it happens: its status and the
// wait Retry-After asked for (in ms), or the kind of network fault.
import {
	networkFailure,
	parseRetryAfter,
} from '../../nodes/OutreachSequences/transport/failure.ts';
import { attemptOf, header } from '../../nodes/OutreachSequences/transport/index.ts';

describe('parseRetryAfter', () => {
	const now = Date.parse('Mon, 23 Nov 2026 10:00:00 GMT');
	test.each([
		['5', 5000],
		[' 0 ', 0],
		['120', 120_000],
		['Mon, 23 Nov 2026 10:00:07 GMT', 7000],
		['Mon, 23 Nov 2026 09:59:00 GMT', 0],
		[undefined, undefined],
		['', undefined],
		['-3', undefined],
		['1.5', undefined],
		['soon', undefined],
	])('%j is a wait of %j ms', (value, expected) => {
		expect(parseRetryAfter(value, now)).toBe(expected);
	});
});

describe('attemptOf: an answer is a success only with a 2xx status and a JSON object', () => {
	const now = Date.parse('Mon, 23 Nov 2026 10:00:00 GMT');
	test('a 201 with an object is the service answer, unchanged', () => {
		expect(
			attemptOf({ statusCode: 201, headers: {}, body: { id: 's-1', name: null } }, now, 'POST'),
		).toEqual({ ok: true, json: { id: 's-1', name: null } });
	});

	test.each([
		[429, { 'Retry-After': '3' }, 3000, true],
		[503, { 'retry-after': 'Mon, 23 Nov 2026 10:00:02 GMT' }, 2000, true],
		[503, { 'Retry-After': '0' }, 0, true],
		[429, {}, undefined, false],
		[503, {}, undefined, false],
		// Not a wait: as if there were none.
		[503, { 'Retry-After': 'soon' }, undefined, false],
		// The reset its rate-limit headers name is the wait, but it is no Retry-After.
		[503, { 'RateLimit-Remaining': '0', 'RateLimit-Reset': '4' }, 4000, false],
		[200, {}, undefined, false],
	])(
		'HTTP %i with %j: a wait of %j ms; Retry-After %s',
		(statusCode, headers, retryAfterMs, retryAfter) => {
			const answer = { statusCode, headers, body: statusCode === 200 ? '' : { message: 'x' } };
			for (const method of ['GET', 'POST'] as const)
				expect(attemptOf(answer, now, method)).toEqual({
					ok: false,
					failure: { kind: 'http', status: statusCode, method, retryAfterMs, retryAfter, answer },
				});
		},
	);
});

test('header: any case, and the first value of a list', () => {
	expect(header({ LOCATION: ['https://a.example/x', 'https://b.example'] }, 'location')).toBe(
		'https://a.example/x',
	);
	expect(header({ 'Retry-After': 5 }, 'retry-after')).toBe('5');
	expect(header({ 'Retry-After': [] }, 'retry-after')).toBeUndefined();
	expect(header({}, 'retry-after')).toBeUndefined();
});

test('networkFailure finds the network code wherever it is nested', () => {
	const axios = Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' });
	const wrapped = Object.assign(new Error('The connection cannot be established'), {
		cause: axios,
	});
	expect(networkFailure(wrapped)).toEqual({
		kind: 'network',
		fault: 'dns',
		code: 'ENOTFOUND',
		message: 'getaddrinfo ENOTFOUND x',
	});
	expect(networkFailure(new Error('plain'))).toEqual({
		kind: 'network',
		fault: 'other',
		code: undefined,
		message: 'plain',
	});
	const loop: { cause?: unknown; message: string } = { message: 'loop' };
	loop.cause = loop;
	expect(networkFailure(loop)).toEqual({
		kind: 'network',
		fault: 'other',
		code: undefined,
		message: 'loop',
	});
});

test('networkFailure reads the code n8n 1.x keeps as httpCode on its NodeApiError', () => {
	// n8n 1.123's httpRequestWithAuthentication wraps the HTTP library's error
	// like this: its own message, the code as httpCode, no cause chain.
	const timeout = Object.assign(
		new Error('The connection was aborted, perhaps the server is offline'),
		{ httpCode: 'ECONNABORTED' },
	);
	expect(networkFailure(timeout)).toEqual({
		kind: 'network',
		fault: 'timeout',
		code: 'ECONNABORTED',
		message: 'The connection was aborted, perhaps the server is offline',
	});
	// An HTTP status is not a network code.
	expect(
		networkFailure(Object.assign(new Error('Not found'), { httpCode: '404' })).code,
	).toBeUndefined();
	// A code further down the chain wins over the wrapper's.
	const inner = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
	expect(
		networkFailure(Object.assign(new Error('wrapped'), { httpCode: 'ECONNABORTED', cause: inner })),
	).toMatchObject({ fault: 'reset', code: 'ECONNRESET' });
});
