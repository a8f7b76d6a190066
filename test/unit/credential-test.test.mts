// The credential's test is a request n8n sends itself (helpers/credentialTest.ts),
// through n8n's proxy settings and SSRF protection. n8n's credentials tester runs
// it; test/e2e/credential-test.e2e.mts does so in real n8n, for every case.
// Here: its parts, read the way n8n reads them. Expressions are resolved by
// n8n-workflow's own expression engine, with the keys n8n's RoutingNode hands
// a test's request; rules are matched as the tester matches them.
import { createRequire } from 'node:module';

import type { IAuthenticateRuleResponseSuccessBody, INodeTypes, IDataObject } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import {
	CREDENTIAL_TEST_PATH,
	FAILING_STATUSES,
	IGNORE_STATUS_ERRORS,
	NOT_THE_API,
	credentialTest,
	keyRejected,
	notChecked,
	redirected,
} from '../../nodes/OutreachSequences/helpers/credentialTest.ts';

// The tester's own lookup of a body rule's key (credentials-tester.service.ts).
const get = createRequire(import.meta.url)('lodash/get') as (
	value: unknown,
	path: string,
) => unknown;

const NODE = {
	id: 't',
	name: 'Temp-Node',
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};
const nodeTypes = {
	getByName: () => undefined,
	getByNameAndVersion: () => undefined,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;
const workflow = new Workflow({ nodes: [NODE], connections: {}, active: false, nodeTypes });

/** A value of the test's request, resolved as RoutingNode resolves it, with these keys. */
const resolve = (value: string, keys: IDataObject): unknown =>
	workflow.expression.getParameterValue(value, null, 0, 0, NODE.name, [], 'internal', keys);

const rules = credentialTest.rules ?? [];
/** The tester's message for a thrown answer with this status: the first responseCode rule that matches. */
const statusMessage = (status: number) =>
	rules.find((rule) => rule.type === 'responseCode' && rule.properties.value === status)?.properties
		.message;
/** The tester's message for a success with this body: the first responseSuccessBody rule that matches. */
const bodyMessage = (body: unknown) =>
	(rules as unknown as IAuthenticateRuleResponseSuccessBody[]).find(
		(rule) =>
			rule.type === 'responseSuccessBody' &&
			get(body, rule.properties.key) === rule.properties.value,
	)?.properties.message;

test('one GET of the use case that does not exist, no redirect followed', () => {
	expect(credentialTest.request).toMatchObject({
		method: 'GET',
		url: CREDENTIAL_TEST_PATH,
		disableFollowRedirect: true,
	});
});

describe('which statuses n8n throws on', () => {
	const withExecution = resolve(IGNORE_STATUS_ERRORS, { $execution: { id: 'x' } }) as {
		ignore: boolean;
		except: number[];
	};

	test('from n8n 2.20 on: every status but 2xx and 404', () => {
		expect(withExecution.ignore).toBe(true);
		for (const status of [401, 403, 302, 500, 503, 418, 599, 100]) {
			expect(withExecution.except).toContain(status);
		}
		for (const status of [200, 201, 204, 299, 404]) {
			expect(withExecution.except).not.toContain(status);
		}
		expect(withExecution.except).toEqual(FAILING_STATUSES);
	});

	test("before it, where `$execution` is not in the request's scope: n8n's default, every status but 2xx", () => {
		expect(resolve(IGNORE_STATUS_ERRORS, {})).toBe(false);
	});
});

describe('a sentence per status', () => {
	test.each([401, 403])('%i: the key was rejected', (status) => {
		expect(statusMessage(status)).toBe(keyRejected(status));
	});

	test.each([301, 302, 307, 308])('%i: a redirect, not followed', (status) => {
		expect(statusMessage(status)).toBe(redirected(status));
	});

	test.each([400, 405, 429, 451, 500, 502, 503, 504, 511])(
		'%i: the key could not be checked',
		(status) => {
			expect(statusMessage(status)).toBe(notChecked(status));
		},
	);

	test('404, which only an n8n before 2.20 throws on, is in its own words', () => {
		expect(statusMessage(404)).toBeUndefined();
	});

	test("a status HTTP does not define gets n8n's words, and still fails", () => {
		expect(statusMessage(599)).toBeUndefined();
		expect(FAILING_STATUSES).toContain(599);
	});
});

describe('the body of an answer n8n does not throw on', () => {
	test.each([
		['a JSON object', { message: 'Resource not found' }, undefined],
		['a JSON list', [{ id: 'u-1' }], undefined],
		['a web page', '<html><body>Not here</body></html>', NOT_THE_API],
		['an empty body', '', NOT_THE_API],
		['a JSON string', 'ok', NOT_THE_API],
	])('%s', (_, body, message) => {
		expect(bodyMessage(body)).toBe(message);
	});
});
