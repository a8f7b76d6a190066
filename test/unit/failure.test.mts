// A failed attempt is classified once, where it happens: its status and the
// wait Retry-After asked for (in ms), or the kind of network fault.
import {
	networkFailure,
	parseRetryAfter,
} from '../../nodes/OutreachSequences/transport/failure.ts';
import { attemptOf, header } from '../../nodes/OutreachSequences/transport/index.ts';

const now = Date.parse('Mon, 23 Nov 2026 10:00:00 GMT');

test.each<[string | undefined, number | undefined]>([
	['5', 5000],
	[' 0 ', 0],
	['Mon, 23 Nov 2026 10:00:07 GMT', 7000],
	['Mon, 23 Nov 2026 09:59:00 GMT', 0],
	...[undefined, '', '-3', '1.5', 'soon'].map((value): [string | undefined, undefined] => [
		value,
		undefined,
	]),
])('Retry-After %j is a wait of %j ms', (value, expected) => {
	expect(parseRetryAfter(value, now)).toBe(expected);
});

test('a 2xx with a JSON object is the service answer, unchanged', () => {
	const body = { id: 's-1', name: null };
	expect(attemptOf({ statusCode: 201, headers: {}, body }, now, 'POST')).toEqual({
		ok: true,
		json: body,
	});
});

test.each([
	[429, { 'Retry-After': '3' }, 3000, true],
	[503, { 'retry-after': 'Mon, 23 Nov 2026 10:00:02 GMT' }, 2000, true],
	[429, {}, undefined, false],
	[503, { 'Retry-After': 'soon' }, undefined, false],
	// The reset its rate-limit headers name is the wait, but it is no Retry-After.
	[503, { 'RateLimit-Remaining': '0', 'RateLimit-Reset': '4' }, 4000, false],
	// A 2xx whose body is not an object fails.
	[200, {}, undefined, false],
])(
	'HTTP %i with %j: a wait of %j ms; Retry-After %s',
	(status, headers, retryAfterMs, retryAfter) => {
		const answer = { statusCode: status, headers, body: status === 200 ? '' : { message: 'x' } };
		expect(attemptOf(answer, now, 'GET')).toEqual({
			ok: false,
			failure: { kind: 'http', status, method: 'GET', retryAfterMs, retryAfter, answer },
		});
	},
);

test('header: any case, and the first value of a list', () => {
	expect(header({ LOCATION: ['https://a.example/x', 'https://b.example'] }, 'location')).toBe(
		'https://a.example/x',
	);
	expect(header({ 'Retry-After': 5 }, 'retry-after')).toBe('5');
	expect(header({ 'Retry-After': [] }, 'retry-after')).toBeUndefined();
});

const error = (message: string, fields: object = {}) => Object.assign(new Error(message), fields);
const loop = error('loop');
loop.cause = loop;

test.each([
	// n8n 2.x: the HTTP library's error in the cause chain.
	[
		error('cannot connect', { cause: error('getaddrinfo ENOTFOUND x', { code: 'ENOTFOUND' }) }),
		'dns',
		'ENOTFOUND',
		'getaddrinfo ENOTFOUND x',
	],
	// n8n 1.x: its own message, the code as httpCode, no cause chain; an HTTP status is no network code.
	[
		error('The connection was aborted', { httpCode: 'ECONNABORTED' }),
		'timeout',
		'ECONNABORTED',
		'The connection was aborted',
	],
	[error('Not found', { httpCode: '404' }), 'other', undefined, 'Not found'],
	// A code further down the chain wins over the wrapper's.
	[
		error('wrapped', {
			httpCode: 'ECONNABORTED',
			cause: error('socket hang up', { code: 'ECONNRESET' }),
		}),
		'reset',
		'ECONNRESET',
		'socket hang up',
	],
	[loop, 'other', undefined, 'loop'],
])('network failure %#: %s, code %s', (thrown, fault, code, message) => {
	expect(networkFailure(thrown)).toEqual({ kind: 'network', fault, code, message });
});
