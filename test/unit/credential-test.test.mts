// The credential: authenticate adds the key (a function, so n8n evaluates no
// expression per request) and sends its test to the Base URL the run uses;
// the test is a request n8n sends itself (proxy, SSRF), read here as n8n's
// expression engine and credentials tester read it. In real n8n:
// test/e2e/cli.e2e.mts.
import { createRequire } from 'node:module';

import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INodeTypes,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { OutreachSequencesApi } from '../../credentials/OutreachSequencesApi.credentials.ts';

const credential = new OutreachSequencesApi();
const { request, rules } = credential.test;
const authenticate = credential.authenticate as (
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
) => Promise<IHttpRequestOptions>;
const testRequest = { url: request.url!, baseURL: request.baseURL };

test('a request gets X-API-Key, and keeps the rest as it was; without a key the header is empty', async () => {
	const sent: IHttpRequestOptions = { url: 'https://a.example/v1/x', headers: { Accept: 'json' } };
	expect(await authenticate({ apiKey: 'key-1', baseUrl: 'nonsense' }, sent)).toEqual({
		url: 'https://a.example/v1/x',
		headers: { Accept: 'json', 'X-API-Key': 'key-1' },
	});
	expect(sent.headers).toEqual({ Accept: 'json' });
	expect((await authenticate({}, { url: '/x' })).headers).toEqual({ 'X-API-Key': '' });
});

test("the test goes to the Base URL as the run sends to it, or fails in the run's words, without the key", async () => {
	const to = async (baseUrl: string) =>
		(await authenticate({ apiKey: 'key-12345', baseUrl }, testRequest)).baseURL;
	expect(await to(' https://api.example.com/outreach/v1/ ')).toBe(
		'https://api.example.com/outreach',
	);
	await expect(to('key-12345')).rejects.toThrow(
		'The credential\'s Base URL "[API key]" has no http:// or https:// at the start.',
	);
});

const NODE = {
	id: 't',
	name: 'T',
	type: 'x',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};
const nodeTypes = { getByNameAndVersion: () => undefined } as unknown as INodeTypes;
const workflow = new Workflow({ nodes: [NODE], connections: {}, active: false, nodeTypes });
/** ignoreHttpStatusErrors as n8n's RoutingNode resolves it, with these keys in scope. */
const ignoreWith = (keys: IDataObject) =>
	workflow.expression.getParameterValue(
		request.ignoreHttpStatusErrors as unknown as string,
		null,
		0,
		0,
		NODE.name,
		[],
		'internal',
		keys,
	) as false | { ignore: true; except: number[] };

test("from n8n 2.20 ($execution in scope) n8n throws on every status but 2xx and 404; before, on all but 2xx, n8n's default", () => {
	const thrown = ignoreWith({ $execution: { id: 'x' } });
	const statuses = [100, 200, 204, 299, 301, 401, 404, 429, 503, 599, 999];
	expect(statuses.filter((status) => thrown && thrown.except.includes(status))).toEqual([
		100, 301, 401, 429, 503, 599, 999,
	]);
	expect(ignoreWith({})).toBe(false);
});

const codeRules = rules as IAuthenticateRuleResponseCode[];
test.each([
	...[401, 403].map((status): [number, string] => [
		status,
		`The service rejected the API key (HTTP ${status}). Copy a key from the service's portal: General › Integrations › API Keys.`,
	]),
	[
		302,
		'The Base URL answered with a redirect (HTTP 302). Redirects are not followed, so the API key only goes to the Base URL: set it to the address the service answers at.',
	],
	[
		503,
		'The Base URL answered HTTP 503, so the API key could not be checked. Try the test again later; if it keeps failing, check the Base URL.',
	],
	[404, undefined],
])('a thrown HTTP %i reads: %s', (status, message) => {
	const rule = codeRules.find(
		(entry) => entry.type === 'responseCode' && entry.properties.value === status,
	);
	expect(rule?.properties.message).toBe(message);
});

// The tester's own lookup of a body rule's key (credentials-tester.service.ts).
const get = createRequire(import.meta.url)('lodash/get') as (
	value: unknown,
	path: string,
) => unknown;
test.each([
	[{ message: 'Resource not found' }, undefined],
	[[{ id: 'u-1' }], undefined],
	[
		'<html><body>Not here</body></html>',
		"The Base URL answered, but not with JSON: it does not look like the outreach service's API. Check the Base URL.",
	],
])('an answer n8n does not throw on, with the body %j, reads: %s', (body, message) => {
	const rule = (
		rules as unknown as Array<{
			type: string;
			properties: { key: string; value: unknown; message: string };
		}>
	).find(
		(entry) =>
			entry.type === 'responseSuccessBody' &&
			get(body, entry.properties.key) === entry.properties.value,
	);
	expect(rule?.properties.message).toBe(message);
});
