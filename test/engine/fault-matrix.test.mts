// The fault matrix in n8n's engine: each failing answer and network fault, met by the middle one
// of three archives (c-43), or by all when the Base URL or the timeout is at fault. Under Continue
// (the two modes in turn): one output item per input item with pairedItem, each failed one with
// its facts, each read downstream through $('Items').item; under Stop: nothing runs after the
// node, the failed item's index, its HTTP code, and details that quote the answer.
// Each archive is sent once, no redirect is followed, and no API key is anywhere in the run.
// Their words: test/unit/texts-*.test.mts. What is sent again: rate-limit-resend.test.mts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeParameters } from 'n8n-workflow';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { RELEASE, type Fault } from '../harness/sandbox.mts';
import { startOver, useEnvironment } from '../harness/setup.mts';
import { RETRY_OFF, runFixture, type FixtureRun, type OnError } from '../harness/workflows.mts';

const env = useEnvironment();
const ITEMS = [{ id: 'c-42' }, { id: 'c-43' }, { id: 'a/b?c#d' }];
const [NOT, MAY] = ['notActed', 'mayHaveActed'] as const;
const NO = { message: 'Service says no' };
const SAID = '{"message":"Service says no"}';
const JSON_TYPE = { 'Content-Type': 'application/json' };
const ok = (body: string, type = JSON_TYPE) => ({ status: 200, body, headers: type });

/** A fault of c-43's archive, with what else the run is given; `all`: every item meets it. */
type Setup = Fault & { parameters?: INodeParameters; baseUrl?: () => string; all?: true };
interface Facts {
	outcome: 'notActed' | 'mayHaveActed';
	networkError?: string;
	retryAfterSeconds?: number;
	timesSent?: number;
}
let refused = '';

const CASES: Array<[string, Setup, Facts, (string | RegExp)?]> = [
	['400, JSON', { status: 400, body: NO }, { outcome: NOT }, SAID],
	[
		'400 echoing the key',
		{ status: 400, body: `bad key ${TEST_API_KEYS.engine}` },
		{ outcome: NOT },
		'bad key',
	],
	[
		'403, HTML',
		{ status: 403, body: '<h1>Broke</h1>', headers: { 'Content-Type': 'text/html' } },
		{ outcome: NOT },
		'<h1>Broke</h1>',
	],
	[
		'404, malformed JSON',
		{ status: 404, body: '{"message": "No"', headers: JSON_TYPE },
		{ outcome: NOT },
		'{"message": "No"',
	],
	['418, text', { status: 418, body: 'I am a teapot' }, { outcome: NOT }, 'I am a teapot'],
	[
		'429 with Retry-After, handling off',
		{ status: 429, body: NO, headers: { 'Retry-After': '30' }, parameters: RETRY_OFF },
		{ outcome: NOT, retryAfterSeconds: 30 },
		SAID,
	],
	[
		'429 without Retry-After, handling off',
		{ status: 429, body: NO, parameters: RETRY_OFF },
		{ outcome: NOT },
	],
	[
		'429 asking for more than Max Wait',
		{ status: 429, body: NO, headers: { 'Retry-After': '3600' } },
		{ outcome: NOT, retryAfterSeconds: 3600 },
	],
	['500', { status: 500, body: NO }, { outcome: MAY }, SAID],
	['502, HTML', { status: 502, body: '<html>Bad gateway</html>' }, { outcome: MAY }, 'Bad gateway'],
	// Without Retry-After, a gateway may have passed the archive on (issue 43).
	['503 without Retry-After', { status: 503, body: '' }, { outcome: MAY }],
	[
		'503 with Retry-After, handling off',
		{ status: 503, body: NO, headers: { 'Retry-After': '30' }, parameters: RETRY_OFF },
		{ outcome: NOT, retryAfterSeconds: 30 },
		SAID,
	],
	[
		'504',
		{ status: 504, body: { message: 'upstream timeout' } },
		{ outcome: MAY },
		'upstream timeout',
	],
	// Followed, the redirect would reach the sandbox a fourth time.
	[
		'302, not followed',
		{ status: 302, headers: { Location: '/v1/use_cases/uc-1' } },
		{ outcome: MAY },
	],
	// A 2xx may mean the service acted, whatever its body; the details quote JSON as n8n parsed it.
	[
		'200, malformed JSON',
		ok('{"id": "c-43", "status":'),
		{ outcome: MAY },
		'{"id": "c-43", "status":',
	],
	['200, empty', ok(''), { outcome: MAY }],
	['200, a JSON list', ok('[{"id": "c-43"}]'), { outcome: MAY }, '[{"id":"c-43"}]'],
	['200, a JSON string', ok('"archived"'), { outcome: MAY }, 'archived'],
	[
		'200, HTML',
		ok('<html>ok</html>', { 'Content-Type': 'text/html' }),
		{ outcome: MAY },
		'<html>ok</html>',
	],
	[
		'a connection dropped before the answer',
		{ drop: 'before-response' },
		{ outcome: MAY, networkError: 'reset' },
	],
	[
		'a reset mid-answer',
		{ drop: 'mid-body', status: 200, body: { id: 'c-43' } },
		{ outcome: MAY, networkError: 'reset' },
	],
	// Every archive is held, so that no healthy answer has to come within the limit.
	[
		'an answer slower than Timeout',
		{
			pathPrefix: '/v1/contacts/',
			holdUntil: RELEASE,
			parameters: { requestOptions: { timeout: 300 } },
			all: true,
		},
		{ outcome: MAY, networkError: 'timeout' },
		/\bE[A-Z]{4,}\b/,
	],
	[
		'connection refused',
		{ baseUrl: () => refused, all: true },
		{ outcome: NOT, networkError: 'refused' },
		'ECONNREFUSED',
	],
	[
		'a DNS failure',
		{ baseUrl: () => 'http://outreach-sandbox.invalid', all: true },
		{ outcome: NOT, networkError: 'dns' },
		/\b(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)\b/,
	],
	// Refused before any request.
	[
		'a Base URL that is not http(s)',
		{ baseUrl: () => 'ftp://outreach.example', all: true },
		{ outcome: NOT, timesSent: 0 },
	],
];

beforeAll(async () => {
	// A port that was just free and is now closed: nothing listens there.
	const closed = http.createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	refused = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
	await new Promise((resolve) => closed.close(resolve));
});

const seen = (error?: object) =>
	error ? JSON.stringify(error, Object.getOwnPropertyNames(error)) : '';

async function runWith(setup: Setup, onError: OnError): Promise<FixtureRun> {
	const { parameters, baseUrl, all, ...fault } = setup;
	await startOver(env);
	if (!baseUrl) await env.sandbox.addFault({ pathPrefix: '/v1/contacts/c-43/', ...fault });
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: ITEMS,
		onError,
		parameters,
		credential: baseUrl && { apiKey: env.sandbox.apiKey, baseUrl: baseUrl() },
	});
	// Under Stop, the items after the failed one are not sent.
	if (onError !== 'stopWorkflow')
		expect(await env.sandbox.requests()).toHaveLength(baseUrl ? 0 : ITEMS.length);
	expect(JSON.stringify(run.run.data) + seen(run.error) + seen(run.error?.cause)).not.toContain(
		env.sandbox.apiKey,
	);
	return run;
}

test.each(
	CASES.map(([name, setup, facts, details], index) => {
		const output = index % 2 ? 'error output' : 'regular output';
		return [output, name, setup, facts, details ?? ''] as const;
	}),
)('%s: %s', async (output, _, setup, facts, details) => {
	const failing = setup.all ? [0, 1, 2] : [1];
	const statusCode = facts.networkError ? null : (setup.status ?? null);
	const message = {
		statusCode,
		networkError: null,
		timesSent: 1,
		retryAfterSeconds: null,
		...facts,
	};
	const onError = output === 'error output' ? 'continueErrorOutput' : 'continueRegularOutput';
	const items = ITEMS.map(({ id }, item) => ({
		pairedItem: { item },
		json: !failing.includes(item)
			? expect.objectContaining({ id })
			: { error: expect.any(String), message, ...(onError === 'continueErrorOutput' && { id }) },
	}));
	const run = await runWith(setup, onError);
	expect(run.error).toBeUndefined();
	expect(
		run.outputs.map((out) => out.map(({ json, pairedItem }) => ({ json, pairedItem }))),
	).toEqual(
		onError === 'continueRegularOutput'
			? [items]
			: [
					items.filter((_, index) => !failing.includes(index)),
					items.filter((_, index) => failing.includes(index)),
				],
	);

	// Downstream, $('Items').item reaches each item's input through its pairedItem.
	const read = (node: string) =>
		(run.output(node)[0] ?? []).map(({ json }) => json.read as { input: { id: string } });
	expect([...read('After Success'), ...read('After Error')].map(({ input }) => input.id)).toEqual(
		run.outputs.flat().map(({ pairedItem }) => ITEMS[(pairedItem as { item: number }).item].id),
	);

	const stopped = await runWith(setup, 'stopWorkflow');
	expect(stopped.output('After Success')).toEqual([]);
	expect(stopped.error).toMatchObject({
		context: { itemIndex: failing[0] },
		...(statusCode !== null && { httpCode: String(statusCode) }),
	});
	if (details)
		expect(String((stopped.error as { description?: string }).description)).toMatch(details);
});
