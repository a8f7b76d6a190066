// The text of each failing HTTP answer the fault matrix meets (engine:
// fault-matrix.test.mts, errors.test.mts), asserted here once: every status
// × error body, an answer that asks to wait, a 2xx that holds no result, and
// the redirects, classified as the transport classifies an archive's answer.
import type { Subject } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import type { Failure, HttpAnswer } from '../../nodes/OutreachSequences/transport/failure.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import { describeFailure } from '../../nodes/OutreachSequences/run/outcome/texts.ts';
import { sequence } from './texts-helpers.mts';

const CREDENTIAL = 'Outreach sandbox';
const contact = { noun: 'contact', id: 'c-43', verb: 'archive', done: 'archived' };
const SUBJECT = 'archive contact "c-43"';
const MAY_HAVE_ACTED = 'It may have carried the request out: check before sending it again.';
const BASE_URL_ADVICE = "Check that the credential's Base URL is the address of the service's API.";

function textOf(answer: HttpAnswer, subject: Subject = contact, method: 'GET' | 'POST' = 'POST') {
	const attempt = attemptOf(answer, Date.parse('2026-10-21T07:27:00Z'), method);
	if (attempt.ok) throw new Error('a success');
	return describeFailure(attempt.failure as Failure, {
		subject,
		credentialName: CREDENTIAL,
		baseUrl: 'http://127.0.0.1:1',
		timeoutMs: 2500,
	});
}

/** The error bodies of the matrix, as n8n's helper hands them over: JSON parsed, the rest as text. */
const BODIES = {
	json: { body: { message: 'Service says no' }, quoted: ': Service says no', notJson: false },
	html: {
		body: '<html><body><h1>Something broke</h1></body></html>',
		headers: { 'content-type': 'text/html' },
		quoted: '',
		notJson: true,
	},
	empty: { body: '', quoted: '', notJson: false },
	malformed: {
		body: '{"message": "Service says no"',
		headers: { 'content-type': 'application/json' },
		quoted: '',
		notJson: true,
	},
} as const;
type BodyKind = keyof typeof BODIES;

/** The texts the package issue specifies, per status class. */
function expected(status: number, kind: BodyKind, retryAfter?: string): string {
	const { quoted, notJson } = BODIES[kind];
	if (status === 401 || status === 403)
		return `The outreach service rejected the API key (HTTP ${status})${quoted}. Check the API Key in the credential "${CREDENTIAL}": keys are made in the service's portal under General › Integrations › API Keys.`;
	if (status === 429) {
		const wait = retryAfter
			? ` It asked to wait ${retryAfter} seconds (Retry-After: ${retryAfter}).`
			: '';
		return `The outreach service is rate-limiting requests (HTTP 429)${quoted}.${wait}`;
	}
	const notJsonText = notJson ? ', and its answer is not JSON' : '';
	if (status >= 500) {
		const advice = status === 503 && retryAfter !== undefined ? 'Try again later.' : MAY_HAVE_ACTED;
		return `The outreach service failed (HTTP ${status}) to ${SUBJECT}${quoted}${notJsonText}. ${advice}`;
	}
	if (notJson)
		return `The outreach service failed (HTTP ${status}) to ${SUBJECT}${notJsonText}. ${BASE_URL_ADVICE}`;
	if (status === 404) return `Contact "c-43" was not found (HTTP 404)${quoted}`;
	return `The outreach service refused to ${SUBJECT} (HTTP ${status})${quoted}`;
}

const STATUSES = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504];
const cases = STATUSES.flatMap((status) =>
	(Object.keys(BODIES) as BodyKind[]).map((kind) => [status, kind] as const),
);

describe.each(cases)('HTTP %i, %s body', (status, kind) => {
	const { body } = BODIES[kind];
	const shape = BODIES[kind] as { headers?: Record<string, string> };
	const headers: Record<string, string> = { ...shape.headers };

	test('the message', () => {
		expect(textOf({ statusCode: status, body, headers }).message).toBe(expected(status, kind));
	});

	test('the details quote the answer as it came', () => {
		const { description } = textOf({ statusCode: status, body, headers });
		const type = 'content-type' in headers ? ` (${headers['content-type']})` : '';
		const shown = typeof body === 'string' ? body : JSON.stringify(body);
		expect(description).toBe(
			shown
				? `The service answered HTTP ${status}${type}: ${shown}`
				: `The service answered HTTP ${status}${type} with an empty body.`,
		);
	});
});

test.each([429, 503])('HTTP %i with Retry-After: the wait it asked for', (status) => {
	const answer = {
		statusCode: status,
		body: { message: 'Service says no' },
		headers: { 'Retry-After': '30' },
	};
	expect(textOf(answer).message).toBe(expected(status, 'json', '30'));
});

test.each([
	['an error field', { error: 'already archived' }, ': already archived'],
	['a detail field', { detail: 'bad state' }, ': bad state'],
	['no message field', { code: 7 }, ''],
])('a 409 with %s: what the service said, quoted', (_, body, quoted) => {
	expect(textOf({ statusCode: 409, body, headers: {} }).message).toBe(
		`The outreach service refused to ${SUBJECT} (HTTP 409)${quoted}`,
	);
});

test('a text answer with a status of no class of its own: not JSON, and the Base URL to check', () => {
	expect(textOf({ statusCode: 418, body: 'I am a teapot', headers: {} }).message).toBe(
		`The outreach service failed (HTTP 418) to ${SUBJECT}, and its answer is not JSON. ${BASE_URL_ADVICE}`,
	);
});

test.each([
	['malformed JSON', '{"id": "c-43", "status":'],
	['an empty body', ''],
	['a JSON list', [{ id: 'c-43' }]],
	['a JSON string', 'archived'],
	['a JSON number', 42],
	['JSON null', null],
	['an HTML page', '<html>ok</html>'],
])('a 200 with %s holds no result, and the service may have acted', (_, body) => {
	expect(textOf({ statusCode: 200, body, headers: {} }).message).toBe(
		`The outreach service answered HTTP 200 to ${SUBJECT}, but not with a JSON object, so there is no result to output. ${BASE_URL_ADVICE} ${MAY_HAVE_ACTED}`,
	);
});

describe('a redirect, which the node never follows', () => {
	const location = 'http://127.0.0.2:4011/steal';

	test.each([301, 302, 307, 308])('%i after an archive: the Base URL to set', (status) => {
		expect(textOf({ statusCode: status, body: '', headers: { Location: location } }).message).toBe(
			`The outreach service redirected the request to ${SUBJECT} (HTTP ${status} to ${location}). Redirects are not followed, so the API key only goes to the credential's Base URL: set the Base URL to the service's current address. ${MAY_HAVE_ACTED}`,
		);
	});

	test('303 after an archive or a create: it points to what the service did', () => {
		expect(textOf({ statusCode: 303, body: '', headers: { Location: location } }).message).toBe(
			`The outreach service answered the request to ${SUBJECT} by pointing to its result elsewhere (HTTP 303 to ${location}), which the node does not follow, so the API key only goes to the credential's Base URL. ${MAY_HAVE_ACTED}`,
		);
		const named = { ...sequence, name: 'S4' };
		const answer = { statusCode: 303, body: '', headers: { Location: '/v1/sequences/elsewhere' } };
		expect(textOf(answer, named).message).toBe(
			`The outreach service answered the request to create the sequence "S4" by pointing to its result elsewhere (HTTP 303 to /v1/sequences/elsewhere), which the node does not follow, so the API key only goes to the credential's Base URL. ${MAY_HAVE_ACTED}`,
		);
	});
});

test.each([
	['use case', 'get', 'Use case'],
	['contact list', 'archive', 'Contact list'],
])("a %s's 404 names it by its ID", (noun, verb, named) => {
	const subject = { noun, id: 'zz-404', verb, done: `${verb}d` };
	const answer = { statusCode: 404, body: { message: 'Resource not found' }, headers: {} };
	expect(textOf(answer, subject, verb === 'get' ? 'GET' : 'POST').message).toBe(
		`${named} "zz-404" was not found (HTTP 404): Resource not found`,
	);
});
