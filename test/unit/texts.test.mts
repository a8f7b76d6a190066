// The failure texts (run/outcome/texts.ts), from failures classified as the
// transport classifies them: each answer and network fault the fault matrix
// meets, by the facts a user needs (the status, what the service said, the
// wait, the way on, whether it may have acted), and the log lines.
import { redact } from '../../nodes/OutreachSequences/helpers/secret.ts';
import type { Subject } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import {
	pushedBackLogLine,
	quotaLogLine,
	sharedPaceLogLine,
} from '../../nodes/OutreachSequences/run/outcome/logLines.ts';
import {
	describeFailure,
	notSentAgainText,
	serviceDownText,
	serviceMessage,
} from '../../nodes/OutreachSequences/run/outcome/texts.ts';
import type { Failure, HttpAnswer } from '../../nodes/OutreachSequences/transport/failure.ts';
import { networkFailure } from '../../nodes/OutreachSequences/transport/failure.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';

const contact = { noun: 'contact', id: 'c-43', verb: 'archive', done: 'archived' };
const sequence = { noun: 'sequence', name: 'S4', verb: 'create', done: 'created' };
const BASE_URL = 'http://127.0.0.1:4010';
const setting = (subject: Subject) => ({
	subject,
	baseUrl: BASE_URL,
	timeoutMs: 1000,
	credentialName: 'Outreach sandbox',
});
/** Each of `facts` ("a|b|!c") is in the text, or with "!" is not. */
function says(text: string, facts: string) {
	for (const fact of facts.split('|'))
		if (fact.startsWith('!')) expect(text).not.toContain(fact.slice(1));
		else expect(text).toContain(fact);
}
/** The way on a message ends with when the service may have acted. */
const MAY_HAVE = /check before sending it again\.$/;

function failureOf(answer: HttpAnswer, method: 'GET' | 'POST' = 'POST'): Failure {
	const attempt = attemptOf(answer, Date.parse('2026-10-21T07:27:00Z'), method);
	if (attempt.ok) throw new Error('a success');
	return attempt.failure;
}

const said = { message: 'says no' };
const page = '<html><body><h1>Something broke</h1></body></html>';
const html = { 'content-type': 'text/html' };
const date = 'Wed, 21 Oct 2026 07:28:00 GMT';

const SUBJECTS = { archive: contact, create: sequence, get: { ...contact, verb: 'get' } };
const CASES: Array<
	[number, unknown, Record<string, unknown>, keyof typeof SUBJECTS, string, boolean]
> = [
	[401, said, {}, 'archive', 'HTTP 401|says no|"Outreach sandbox"|API Keys', false],
	[403, '', {}, 'archive', 'HTTP 403|"Outreach sandbox"', false],
	[404, said, {}, 'archive', 'Contact "c-43"|not found|HTTP 404|says no', false],
	[404, '', {}, 'create', 'create the sequence "S4"|HTTP 404', false],
	[409, { error: 'already archived' }, {}, 'archive', 'HTTP 409|already archived', false],
	[422, { detail: 'bad state' }, {}, 'archive', 'HTTP 422|bad state', false],
	[429, said, { 'Retry-After': '30' }, 'archive', 'says no|30 seconds|Retry-After: 30', false],
	[429, '', { 'retry-after': date }, 'archive', `HTTP 429|${date}`, false],
	[503, '', { 'Retry-After': '30' }, 'archive', 'HTTP 503|contact "c-43"|Try again later', false],
	[503, '', {}, 'archive', 'HTTP 503', true],
	[500, said, {}, 'archive', 'HTTP 500|says no', true],
	[502, page, html, 'archive', 'HTTP 502|not JSON', true],
	[400, page, html, 'archive', "HTTP 400|not JSON|credential's Base URL", false],
	[418, 'I am a teapot', {}, 'archive', "HTTP 418|not JSON|credential's Base URL", false],
	[200, [{ id: 'c-43' }], {}, 'archive', "HTTP 200|no result|credential's Base URL", true],
	[200, '<html>ok</html>', {}, 'archive', 'HTTP 200|no result', true],
	[301, '', { Location: 'http://x.test' }, 'archive', 'to http://x.test|set the Base URL', true],
	[302, '', { LOCATION: ['http://x.test/a'] }, 'archive', 'HTTP 302 to http://x.test/a', true],
	[307, '', {}, 'get', 'HTTP 307|not followed|set the Base URL', false],
	[
		303,
		'',
		{ Location: '/v1/sequences/s-9' },
		'create',
		'HTTP 303 to /v1/sequences/s-9|!set the',
		true,
	],
];

describe('an HTTP answer: its facts in the message, and whether the service may have acted', () => {
	test.each(CASES)('HTTP %i, %j %j to %s: %s', (statusCode, body, headers, to, facts, mayHave) => {
		const answer = { statusCode, body, headers };
		const failure = failureOf(answer, to === 'get' ? 'GET' : 'POST');
		const { message } = describeFailure(failure, setting(SUBJECTS[to]));
		says(message, facts);
		expect(MAY_HAVE.test(message)).toBe(mayHave);
	});

	test.each<[number, unknown, Record<string, unknown>, string]>([
		[400, said, {}, 'HTTP 400|{"message":"says no"}'],
		[502, page, html, `HTTP 502 (text/html): ${page}`],
		[500, '', {}, 'HTTP 500 with an empty body'],
		[500, 'y'.repeat(5000), {}, `${'y'.repeat(2000)}… (5000 characters in all)`],
	])('the details quote HTTP %i as it came', (statusCode, body, headers, facts) => {
		const { description } = describeFailure(
			failureOf({ statusCode, body, headers }),
			setting(contact),
		);
		says(description, facts);
		expect(description.length).toBeLessThan(2100);
	});

	test.each([
		[{ error: { message: 'nested' } }, undefined],
		['Resource not found', undefined],
		[{ message: 'x'.repeat(1000) }, `${'x'.repeat(300)}…`],
	])(
		"the service's message is quoted from a top-level text only, cut at 300: %j",
		(body, quoted) => {
			expect(serviceMessage(body)).toBe(quoted);
		},
	);
});

describe('no answer: what failed on the network, without its code (NodeApiError would swap the message)', () => {
	test.each<[string | undefined, string | undefined, string, boolean]>([
		['ECONNREFUSED', undefined, `${BASE_URL}|refused|credential's Base URL`, false],
		['ENOTFOUND', undefined, `${BASE_URL} could not be found|DNS`, false],
		['DEPTH_ZERO_SELF_SIGNED_CERT', undefined, 'TLS certificate|Ignore SSL Issues', false],
		['ECONNABORTED', 'timeout of 1000ms exceeded', '1000 ms|Timeout (Ms)', true],
		['ETIMEDOUT', undefined, '1000 ms', true],
		['ECONNRESET', 'socket hang up', 'reset|archive contact "c-43"', true],
		[undefined, 'aborted', 'reset', true],
		['ERR_CANCELED', undefined, 'cancelled|execution stopped', true],
		['EHOSTUNREACH', undefined, `${BASE_URL}|details`, true],
	])('%s (%s): %s', (code, raw, facts, mayHave) => {
		const failure = networkFailure({ code, message: raw });
		const { message, description } = describeFailure(failure, setting(contact));
		says(message, facts);
		expect(MAY_HAVE.test(message)).toBe(mayHave);
		expect(message).not.toMatch(/\bE[A-Z_]{4,}\b/);
		expect(description).toContain(`Base URL: ${BASE_URL}`);
		if (code) expect(description).toContain(code);
	});
});

const limited = failureOf({ statusCode: 429, body: '', headers: { 'Retry-After': '1' } });
const refused = networkFailure({ code: 'ECONNREFUSED' });
const down = { failed: 6, of: 6, labels: { timeout: 4, 'HTTP 502': 2 } };
const never = serviceDownText(down, 0, undefined, sequence);
const last = { message: 'It failed (HTTP 502).', description: 'details' };
const again = serviceDownText({ failed: 5, of: 8, labels: { reset: 5 } }, 2, last, contact);
const LOG = 'Outreach Sequences: ';
const policy = { maxRetries: 10, maxWaitMs: 60_000 };
const gaveUp = (reason: 'disabled' | 'exhausted' | 'waitTooLong', sends: number) =>
	notSentAgainText(never, { reason, sends }, policy);

test.each([
	[never.message, 'Not sent|looked down|create the sequence "S4" once the service is back'],
	[never.description, 'last 6 requests|timeout: 4|HTTP 502: 2|1 second pause|never reached'],
	[again.message, 'It failed (HTTP 502). The item was sent 2 times|not again|looked down'],
	[again.description, '5 of the last 8 requests|reset: 5|\n\ndetails'],
	[gaveUp('disabled', 1).message, `${never.message} The item was sent once, and not again|is off`],
	[gaveUp('exhausted', 11).message, 'sent 11 times, and not again|Max Retries per Item (10)'],
	[gaveUp('waitTooLong', 2).message, 'sent 2 times|longer than the 60 seconds|Max Wait'],
	[notSentAgainText(never, { reason: 'notSafe', sends: 1 }, policy).message, never.message],
	[pushedBackLogLine(limited, 1000, 238, 16), `${LOG}|HTTP 429, Retry-After: 1|1 second|238 items`],
	[pushedBackLogLine(refused, 2500, 1, 1), `${LOG}|network: refused|2.5 seconds|1 item goes on`],
	[quotaLogLine({ remaining: 0, resetMs: 2000 }, 12, 4), `${LOG}|used up|0 left|2 seconds|4 in`],
	[quotaLogLine({ remaining: 2, resetMs: 1000 }, 12, 4), `${LOG}|will be used up|2 left|1 second`],
	[sharedPaceLogLine(BASE_URL, 1500, 4.26, 2), `${BASE_URL}|1.5 seconds|4.3 requests per`],
	[sharedPaceLogLine(BASE_URL, 0, Infinity, 8), `${LOG}|up to 8 in flight`],
])(
	'an item the breaker kept back or the settings did not send again; the log lines of a run that waits: %j',
	(text, facts) => {
		says(text, facts);
	},
);

test.each([
	['k=abcd1234, again abcd1234', 'abcd1234', 'k=[API key], again [API key]'],
	['short', 'ab', 'short'],
	['none', undefined, 'none'],
])('redact takes every occurrence of the key out of %j', (text, key, redacted) => {
	expect(redact(text, key)).toBe(redacted);
});
