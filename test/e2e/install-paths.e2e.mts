// The install paths users ask about, in real n8n with the package installed
// from its tarball, run with `n8n execute`:
// - behind a corporate proxy (n8n 2.x): n8n's HTTP_PROXY applies to this
//   node, so a local forward proxy carries each request; NO_PROXY bypasses it;
// - endpoints this node doesn't cover: the HTTP Request node with
//   Authentication › Predefined Credential Type › Outreach Sequences API sends
//   the credential's key, which the credential's authenticate function adds
//   (n8n calls it for every request) beside the node's own headers; on n8n 2.x
//   the credential's Allowed HTTP Request Domains keeps it from other hosts.

import { TEST_API_KEYS } from '../harness/keys.mts';
import { N8N_CURRENT, outputsOf } from './harness/n8n.mts';
import { startProxy } from './harness/proxy.mts';
import { useN8n, useSandbox } from './harness/stage.mts';
import {
	MANUAL_TRIGGER,
	outreachCredential,
	outreachNode,
	workflowOf,
	type WorkflowNode,
} from './harness/workflows.mts';

const OURS = 'Get Use Case';
const HTTP = 'HTTP Request';

/** Manual Trigger → one node, with `credential` as its Outreach Sequences API credential. */
const workflow = (id: string, node: WorkflowNode, credential: string) =>
	workflowOf(id, [MANUAL_TRIGGER, { ...node, credentials: outreachCredential(credential) }]);

const ours = outreachNode(OURS, { resource: 'useCase', operation: 'get', useCaseId: 'uc-1' });
const httpRequest = (url: string, parameters: Record<string, unknown> = {}): WorkflowNode => ({
	name: HTTP,
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: {
		method: 'GET',
		url,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'outreachSequencesApi',
		options: {},
		...parameters,
	},
});
/** A create with a JSON body: the node sends its own Content-Type header. */
const httpPost = (url: string) =>
	httpRequest(url, {
		method: 'POST',
		sendBody: true,
		contentType: 'json',
		specifyBody: 'json',
		jsonBody: '{ "name": "From the HTTP Request node" }',
	});

describe.each([N8N_CURRENT])('n8n %s: install paths', (version) => {
	const sandbox = useSandbox(TEST_API_KEYS.installPaths);
	const n8n = useN8n(() => {
		const data = { apiKey: sandbox().apiKey, baseUrl: sandbox().url };
		return {
			version,
			name: `paths-${version}`,
			run: 'cli',
			credentials: [
				{ id: 'pathsOpen', name: 'pathsOpen', type: 'outreachSequencesApi', data },
				{
					id: 'pathsRestricted',
					name: 'pathsRestricted',
					type: 'outreachSequencesApi',
					data: {
						...data,
						allowedHttpRequestDomains: 'domains',
						allowedDomains: 'api.example.com',
					},
				},
			],
			workflows: [
				workflow('pathsOurs', ours, 'pathsOpen'),
				workflow('pathsHttp', httpRequest(`${sandbox().url}/v1/use_cases/uc-1`), 'pathsOpen'),
				workflow('pathsHttpPost', httpPost(`${sandbox().url}/v1/sequences`), 'pathsOpen'),
				workflow(
					'pathsHttpRestricted',
					httpRequest(`${sandbox().url}/v1/use_cases/uc-1`),
					'pathsRestricted',
				),
				workflow('pathsOursRestricted', ours, 'pathsRestricted'),
			],
		};
	});

	async function execute(id: string, env: Record<string, string> = {}) {
		await sandbox().reset();
		const { run } = await n8n.execute(id, { env });
		return { run, requests: await sandbox().requests() };
	}

	test('the HTTP Request node with Predefined Credential Type › Outreach Sequences API sends the key and gets the answer', async () => {
		const { run, requests } = await execute('pathsHttp');
		expect(run.error).toBeUndefined();
		const [[item]] = outputsOf(run, HTTP);
		expect(item.json).toMatchObject({ id: 'uc-1', title: 'Book a demo' });
		expect(
			requests.map((request) => [request.method, request.url, request.headers['x-api-key']]),
		).toEqual([['GET', '/v1/use_cases/uc-1', sandbox().apiKey]]);
	});

	test("…and with a body: the key in one X-API-Key header, beside the node's own Content-Type", async () => {
		const { run, requests } = await execute('pathsHttpPost');
		expect(run.error).toBeUndefined();
		const [[item]] = outputsOf(run, HTTP);
		expect(item.json).toMatchObject({ id: expect.stringMatching(/^seq-/) });
		expect(
			requests.map(({ method, url, headers, body }) => ({
				method,
				url,
				key: headers['x-api-key'],
				type: headers['content-type'],
				body: JSON.parse(body),
			})),
		).toEqual([
			{
				method: 'POST',
				url: '/v1/sequences',
				key: sandbox().apiKey,
				type: 'application/json',
				body: { name: 'From the HTTP Request node' },
			},
		]);
	});

	test('Allowed HTTP Request Domains on the credential stops the HTTP Request node from sending the key to another host', async () => {
		const { run, requests } = await execute('pathsHttpRestricted');
		expect(run.error?.message).toBe(
			`Domain not allowed: This credential is restricted from accessing ${new URL(sandbox().url).host}. Only the following domains are allowed: api.example.com`,
		);
		expect(requests).toEqual([]);
	});

	test("that list is about the HTTP Request and GraphQL nodes: this node, with the same credential, still reaches the credential's Base URL", async () => {
		const { run, requests } = await execute('pathsOursRestricted');
		expect(run.error).toBeUndefined();
		const [[item]] = outputsOf(run, OURS);
		expect(item.json).toMatchObject({ id: 'uc-1' });
		expect(requests.map((request) => request.url)).toEqual(['/v1/use_cases/uc-1']);
	});

	test.each([
		{
			label: 'HTTP_PROXY: every request goes through the proxy, with the key',
			noProxy: '',
			through: true,
		},
		{
			label: 'NO_PROXY naming the service: the proxy is bypassed',
			noProxy: '127.0.0.1',
			through: false,
		},
	])('behind a proxy, $label', async ({ noProxy, through }) => {
		const proxy = await startProxy();
		try {
			const { run, requests } = await execute('pathsOurs', {
				HTTP_PROXY: proxy.url,
				http_proxy: proxy.url,
				NO_PROXY: noProxy,
				no_proxy: noProxy,
			});
			expect(run.error).toBeUndefined();
			const [[item]] = outputsOf(run, OURS);
			expect(item.json).toMatchObject({ id: 'uc-1' });
			expect(requests).toHaveLength(1);
			expect(proxy.seen).toEqual(through ? [`GET ${sandbox().url}/v1/use_cases/uc-1 key:yes`] : []);
		} finally {
			proxy.close();
		}
	});
});
