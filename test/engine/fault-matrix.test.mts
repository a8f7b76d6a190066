// The fault matrix: every failing answer and network fault, under each of the
// three On Error modes. Three contacts; only the middle one (c-43) meets the
// fault. In every case the error text is the one the package issue specifies,
// the healthy items are unaffected, and counts and pairedItem are exact.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import type { Fault } from '../harness/sandbox.mts';
import {
	NOT_SENT_AGAIN,
	RETRY_OFF,
	runFixture,
	type FixtureRun,
	type OnError,
} from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();

const MODES: OnError[] = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];
const ITEMS = [{ id: 'c-42' }, { id: 'c-43' }, { id: 'a/b?c#d' }];
const FAULTY = 1;
const SUBJECT = 'archive contact "c-43"';
const CREDENTIAL = 'Outreach sandbox';

/** Everything a user or a log could see of a run: run data, and the error's message, description and cause. */
function visibleText(run: FixtureRun): string {
	const error = run.error as (Error & { description?: string; cause?: unknown }) | undefined;
	const parts = [JSON.stringify(run.run.data)];
	if (error)
		parts.push(
			error.message,
			String(error.description ?? ''),
			JSON.stringify(error, Object.getOwnPropertyNames(error)),
		);
	if (error?.cause)
		parts.push(JSON.stringify(error.cause, Object.getOwnPropertyNames(error.cause)));
	return parts.join('\n');
}

function expectText(actual: unknown, expected: string | RegExp): void {
	if (typeof expected === 'string') expect(actual).toBe(expected);
	else expect(actual).toMatch(expected);
}

interface Case {
	name: string;
	fault?: Fault;
	parameters?: INodeParameters;
	credential?: () => ICredentialDataDecryptedObject;
	/** Which items fail: the middle one, or all (a fault of the Base URL). */
	failing: number[];
	message: string | RegExp | (() => string);
	/**
	 * Text the error's description (its details) must hold. Under Stop it may
	 * begin with what was done before the failure (the record), so the
	 * service's answer is matched as a paragraph of its own.
	 */
	details?: string | RegExp;
	/** The facts each failed item carries (docs/errors.md › Failed items). */
	facts: Facts;
}

interface Facts {
	statusCode: number | null;
	networkError: string | null;
	timesSent: number;
	retryAfterSeconds: number | null;
	outcome: 'notActed' | 'mayHaveActed';
}

/** An HTTP failure sent once: the service did not act when it refused (4xx) or was unavailable (503). */
function httpFacts(status: number, retryAfterSeconds: number | null = null): Facts {
	const notActed = (status >= 400 && status < 500) || status === 503;
	return {
		statusCode: status,
		networkError: null,
		timesSent: 1,
		retryAfterSeconds,
		outcome: notActed ? 'notActed' : 'mayHaveActed',
	};
}

function networkFacts(networkError: string, outcome: Facts['outcome']): Facts {
	return { statusCode: null, networkError, timesSent: 1, retryAfterSeconds: null, outcome };
}

async function runCase(testCase: Case, mode: OnError): Promise<void> {
	if (testCase.fault)
		await env.sandbox.addFault({ pathPrefix: '/v1/contacts/c-43/', ...testCase.fault });
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: ITEMS,
		onError: mode,
		parameters: testCase.parameters,
		credential: testCase.credential?.(),
	});
	const message = typeof testCase.message === 'function' ? testCase.message() : testCase.message;
	const healthy = ITEMS.map((_, index) => index).filter(
		(index) => !testCase.failing.includes(index),
	);

	if (mode === 'stopWorkflow') {
		expectText(run.error?.message, message);
		expect(run.error).toMatchObject({ context: { itemIndex: testCase.failing[0] } });
		// The details come last; before them, what the items before the failed one did (doneBeforeStopText), and the safe way on.
		const paragraphs = String((run.error as { description?: string }).description ?? '').split(
			'\n\n',
		);
		if (testCase.details) expectText(paragraphs[paragraphs.length - 1], testCase.details);
		if (paragraphs.length > 1)
			expect(paragraphs[0]).toMatch(
				/^(\d+ of 3 contacts? (was|were) archived before item \d+ failed\. .*)?Executions › Retry keeps what was already archived; Execute workflow starts over and archives it again, unless Request Options › Skip Items Done Before was set for this run\.$/,
			);
		expect(run.output('After Success')).toEqual([]);
		expect(run.output('After Error')).toEqual([]);
	} else if (mode === 'continueRegularOutput') {
		expect(run.error).toBeUndefined();
		expect(run.outputs).toHaveLength(1);
		expect(run.outputs[0].map((item) => item.pairedItem)).toEqual(
			ITEMS.map((_, item) => ({ item })),
		);
		for (const index of testCase.failing) {
			const { error, ...facts } = run.outputs[0][index].json;
			expectText(error, message);
			expect(facts).toEqual({ message: testCase.facts });
		}
		for (const index of healthy) expect(run.outputs[0][index].json.id).toBe(ITEMS[index].id);
	} else {
		expect(run.error).toBeUndefined();
		const [success, failure] = run.outputs;
		expect(success.map((item) => item.pairedItem)).toEqual(healthy.map((item) => ({ item })));
		expect(success.map((item) => item.json.id)).toEqual(healthy.map((index) => ITEMS[index].id));
		expect(failure.map((item) => item.pairedItem)).toEqual(
			testCase.failing.map((item) => ({ item })),
		);
		for (const item of failure) {
			expectText(item.json.error, message);
			// Only error and message are the node's: n8n adds the input item's fields (id) on the error output.
			expect(Object.keys(item.json).sort()).toEqual(['error', 'id', 'message']);
			expect(item.json.message).toEqual(testCase.facts);
		}
		// Downstream nodes still reach each input item.
		const readBack = run
			.output('After Error')[0]
			.map((item) => (item.json.read as { input: { id: string } }).input.id);
		expect(readBack).toEqual(testCase.failing.map((index) => ITEMS[index].id));
	}
	expect(visibleText(run)).not.toContain(env.sandbox.apiKey);
}

// ── HTTP statuses × error bodies ────────────────────────────────────────────
const BODIES = {
	json: {
		body: { message: 'Service says no' },
		quoted: ': Service says no',
		notJson: false,
		shown: '{"message":"Service says no"}',
	},
	html: {
		body: '<html><body><h1>Something broke</h1></body></html>',
		headers: { 'Content-Type': 'text/html' },
		quoted: '',
		notJson: true,
		shown: '<h1>Something broke</h1>',
	},
	empty: { body: '', quoted: '', notJson: false, shown: 'with an empty body.' },
	malformed: {
		body: '{"message": "Service says no"',
		headers: { 'Content-Type': 'application/json' },
		quoted: '',
		notJson: true,
		shown: '{"message": "Service says no"',
	},
} as const;
type BodyKind = keyof typeof BODIES;

/** The texts the package issue specifies, per status class. */
function httpMessage(status: number, kind: BodyKind, retryAfter?: string): string {
	const { quoted, notJson } = BODIES[kind];
	if (status === 401 || status === 403) {
		return `The outreach service rejected the API key (HTTP ${status})${quoted}. Check the API Key in the credential "${CREDENTIAL}": keys are made in the service's portal under General › Integrations › API Keys.`;
	}
	if (status === 429) {
		const wait = retryAfter
			? ` It asked to wait ${retryAfter} seconds (Retry-After: ${retryAfter}).`
			: '';
		return `The outreach service is rate-limiting requests (HTTP 429)${quoted}.${wait} ${NOT_SENT_AGAIN}`;
	}
	const notJsonText = notJson ? ', and its answer is not JSON' : '';
	if (status >= 500) {
		const notSentAgain = status === 503 ? ` ${NOT_SENT_AGAIN}` : '';
		// A 503 says the service did not act; any other 5xx may come after it did.
		const advice =
			status === 503
				? 'Try again later.'
				: 'It may have carried the request out: check before sending it again.';
		return `The outreach service failed (HTTP ${status}) to ${SUBJECT}${quoted}${notJsonText}. ${advice}${notSentAgain}`;
	}
	if (notJson) {
		return `The outreach service failed (HTTP ${status}) to ${SUBJECT}${notJsonText}. Check that the credential's Base URL is the address of the service's API.`;
	}
	if (status === 404) return `Contact "c-43" was not found (HTTP 404)${quoted}`;
	return `The outreach service refused to ${SUBJECT} (HTTP ${status})${quoted}`;
}

const STATUSES = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504];
const httpCases: Case[] = STATUSES.flatMap((status) =>
	(Object.keys(BODIES) as BodyKind[]).map((kind) => {
		const { body, shown } = BODIES[kind];
		const headers =
			'headers' in BODIES[kind]
				? (BODIES[kind] as { headers: Record<string, string> }).headers
				: undefined;
		return {
			name: `HTTP ${status} with a ${kind} body`,
			// 429 and 503 would be sent again; here their texts are under test.
			parameters: status === 429 || status === 503 ? RETRY_OFF : undefined,
			fault: { status, body, headers },
			failing: [FAULTY],
			message: httpMessage(status, kind),
			facts: httpFacts(status),
			details: new RegExp(
				`^The service answered HTTP ${status}.*${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
				'm',
			),
		};
	}),
);
httpCases.push({
	name: 'HTTP 429 with Retry-After',
	fault: { status: 429, body: { message: 'Service says no' }, headers: { 'Retry-After': '30' } },
	parameters: RETRY_OFF,
	failing: [FAULTY],
	message: httpMessage(429, 'json', '30'),
	facts: httpFacts(429, 30),
});

// ── 2xx answers that hold no result ─────────────────────────────────────────
const noResult = `The outreach service answered HTTP 200 to ${SUBJECT}, but not with a JSON object, so there is no result to output. Check that the credential's Base URL is the address of the service's API. It may have carried the request out: check before sending it again.`;
const okBodies: Array<[string, string, string]> = [
	['malformed JSON', '{"id": "c-43", "status":', 'application/json'],
	['an empty body', '', 'application/json'],
	['a JSON list', '[{"id": "c-43"}]', 'application/json'],
	['a JSON string', '"archived"', 'application/json'],
	['a JSON number', '42', 'application/json'],
	['JSON null', 'null', 'application/json'],
	['an HTML page', '<html>ok</html>', 'text/html'],
];
const okCases: Case[] = okBodies.map(([name, body, type]) => ({
	name: `HTTP 200 with ${name}`,
	fault: { status: 200, body, headers: { 'Content-Type': type } },
	failing: [FAULTY],
	message: noResult,
	// A 2xx may mean the service acted, whatever its body.
	facts: httpFacts(200),
	details: /^The service answered HTTP 200/m,
}));

// ── network faults ──────────────────────────────────────────────────────────
const reset = `The connection to the outreach service was reset before its answer to ${SUBJECT} was complete. It may have carried the request out: check before sending it again.`;
let refusedUrl = '';
const networkCases: Case[] = [
	{
		name: 'a connection dropped before the answer',
		fault: { drop: 'before-response' },
		failing: [FAULTY],
		message: reset,
		facts: networkFacts('reset', 'mayHaveActed'),
	},
	{
		name: 'a reset in the middle of the answer',
		fault: { drop: 'mid-body', status: 200, body: { id: 'c-43', status: 'archived' } },
		failing: [FAULTY],
		message: reset,
		facts: networkFacts('reset', 'mayHaveActed'),
	},
	{
		name: 'an answer slower than Request Options › Timeout',
		fault: { delayMs: 1500 },
		parameters: { requestOptions: { timeout: 300 } },
		failing: [FAULTY],
		message: `The outreach service did not answer the request to ${SUBJECT} within 300 ms, the limit set in Request Options › Timeout (Ms). It may have carried the request out: check before sending it again.`,
		facts: networkFacts('timeout', 'mayHaveActed'),
		details: /Network error: /,
	},
	{
		name: 'connection refused',
		credential: () => ({ apiKey: env.sandbox.apiKey, baseUrl: refusedUrl }),
		failing: [0, 1, 2],
		message: () =>
			`Could not connect to the outreach service at ${refusedUrl}: the connection was refused. Check the credential's Base URL and that the service is running.`,
		details: /Network error: ECONNREFUSED/,
		facts: networkFacts('refused', 'notActed'),
	},
	{
		name: 'a DNS failure',
		credential: () => ({ apiKey: env.sandbox.apiKey, baseUrl: 'http://outreach-sandbox.invalid' }),
		failing: [0, 1, 2],
		message:
			'The host "outreach-sandbox.invalid" in the credential\'s Base URL could not be found: the DNS lookup failed.',
		details: /Network error: (ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)/,
		facts: networkFacts('dns', 'notActed'),
	},
];

beforeAll(async () => {
	// A port that was just free and is now closed: nothing listens there.
	const closed = http.createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
	await new Promise((resolve) => closed.close(resolve));
});

describe.each([...httpCases, ...okCases, ...networkCases])('$name', (testCase) => {
	test.each(MODES)('On Error = %s', async (mode) => {
		await runCase(testCase, mode);
	});
});

test('the matrix covers every status and body the issue names', () => {
	expect(httpCases.map((testCase) => testCase.fault?.status)).toEqual(
		expect.arrayContaining(STATUSES),
	);
	expect(httpCases).toHaveLength(STATUSES.length * 4 + 1);
});
