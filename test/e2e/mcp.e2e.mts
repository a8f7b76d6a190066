// Usable from any MCP client: in real n8n (`n8n start`), with the package
// installed from its tarball, the example workflow examples/mcp-server.workflow.json
// (an MCP Server Trigger with Bearer Auth and the four operations wired to it
// as tools, their fields from $fromAI) is imported and published, and the
// official MCP TypeScript SDK's client talks to it over both transports n8n
// offers, Streamable HTTP and SSE, on the same URL.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { recordLog } from './harness/logs.mts';
import {
	N8N_CURRENT,
	N8N_MAINTAINED,
	PACKAGE_NAME,
	ROOT,
	declaredToolDescription,
	type McpToolResult,
} from './harness/n8n.mts';
import { outreachApiCredential } from './harness/credentials.mts';
import { useN8n, useSandbox } from './harness/stage.mts';
import type { WorkflowNode } from './harness/workflows.mts';

const EXAMPLE = path.join(ROOT, 'examples', 'mcp-server.workflow.json');
const MCP_TOKEN = 'e2e-mcp-client-token-71c3';

type ExampleNode = WorkflowNode & {
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
};
const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { id: string; nodes: ExampleNode[] };
const trigger = example.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
const exampleTool = (name: string) => example.nodes.find((node) => node.name === name)!;

/** What each tool must be: its operation, and the one field its $fromAI asks for. */
const TOOLS = {
	Create_Sequence: {
		node: 'Create Sequence',
		resource: 'sequence',
		operation: 'create',
		field: 'name',
	},
	Archive_Contact: {
		node: 'Archive Contact',
		resource: 'contact',
		operation: 'archive',
		field: 'contactId',
	},
	Archive_Contact_List: {
		node: 'Archive Contact List',
		resource: 'contactList',
		operation: 'archive',
		field: 'contactListId',
	},
	Get_Use_Case: { node: 'Get Use Case', resource: 'useCase', operation: 'get', field: 'useCaseId' },
} as const;
type ToolName = keyof typeof TOOLS;

/** The description the example's `$fromAI('<field>', '<description>', 'string')` gives its field. */
function fromAiDescription(tool: ToolName): string {
	const { node, field } = TOOLS[tool];
	const expression = String(exampleTool(node).parameters[field]);
	const match = new RegExp(`\\$fromAI\\('${field}', '([^']+)', 'string'\\)`).exec(expression);
	if (!match)
		throw new Error(`The example's ${node} takes ${field} from no $fromAI: ${expression}`);
	return match[1];
}

type Transport = 'Streamable HTTP' | 'SSE';
const TRANSPORTS: Transport[] = ['Streamable HTTP', 'SSE'];

describe.each([N8N_CURRENT, N8N_MAINTAINED])(
	'n8n %s: the four operations as tools behind the MCP Server Trigger',
	(version) => {
		const sandbox = useSandbox(TEST_API_KEYS.mcp);
		const route = `/mcp/${String(trigger.parameters.path)}`;
		// The credentials the example refers to, by its ids: the sandbox, and the token clients send.
		const outreach = exampleTool('Get Use Case').credentials!.outreachSequencesApi;
		const bearer = trigger.credentials!.httpBearerAuth;
		const n8n = useN8n(() => ({
			version,
			name: `mcp-${version}`,
			run: 'server',
			credentials: [
				outreachApiCredential(outreach.id, sandbox().apiKey, sandbox().url, outreach.name),
				{ ...bearer, type: 'httpBearerAuth', data: { token: MCP_TOKEN } },
			],
			workflows: [EXAMPLE],
			publish: [example.id],
			ready: [route],
		}));
		const endpoint = () => new URL(`${n8n.server.url}${route}`);
		/** Everything any client received, for the check that no API key is in it. */
		const received: unknown[] = [];

		afterAll(() => {
			recordLog(`mcp-${version}-client`, JSON.stringify(received, null, 2));
		});

		function transportFor(kind: Transport, token: string | undefined) {
			const requestInit =
				token === undefined ? undefined : { headers: { Authorization: `Bearer ${token}` } };
			return kind === 'SSE'
				? new SSEClientTransport(endpoint(), { requestInit })
				: new StreamableHTTPClientTransport(endpoint(), { requestInit });
		}

		async function connect(kind: Transport, token: string | undefined): Promise<Client> {
			const client = new Client({ name: 'outreach-e2e', version: '1.0.0' });
			await client.connect(transportFor(kind, token));
			return client;
		}

		async function call(
			client: Client,
			name: ToolName,
			args: Record<string, unknown>,
		): Promise<McpToolResult> {
			const result = (await client.callTool({ name, arguments: args })) as McpToolResult;
			received.push(result);
			return result;
		}

		/** The one text of a result, parsed: the tool's output items. */
		function itemsOf(result: McpToolResult): unknown {
			expect(result.content).toHaveLength(1);
			expect(result.content[0].type).toBe('text');
			return JSON.parse(result.content[0].text!);
		}

		async function expectOneRequest(method: string, url: string): Promise<string> {
			const requests = await sandbox().requests();
			expect(
				requests.map((request) => [request.method, request.url, request.headers['x-api-key']]),
			).toEqual([[method, url, sandbox().apiKey]]);
			return requests[0].body;
		}

		describe.each(TRANSPORTS)('over %s', (kind) => {
			let client: Client;

			beforeAll(async () => {
				client = await connect(kind, MCP_TOKEN);
			});

			afterAll(async () => {
				await client?.close();
			});

			test('tools/list: exactly the four tools, each with its description and the $fromAI field, typed and required', async () => {
				const { tools } = await client.listTools();
				received.push(tools);
				expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(TOOLS).sort());
				for (const tool of tools) {
					const expected = TOOLS[tool.name as ToolName];
					expect(tool.description).toBe(
						declaredToolDescription(expected.resource, expected.operation),
					);
					expect(tool.inputSchema.type).toBe('object');
					expect(tool.inputSchema.properties).toEqual({
						[expected.field]: {
							type: 'string',
							description: fromAiDescription(tool.name as ToolName),
						},
					});
					expect(tool.inputSchema.required).toEqual([expected.field]);
					// Nothing a client fills in asks for the key or where the service is.
					expect(JSON.stringify(tool.inputSchema)).not.toMatch(
						/api.?key|base.?url|token|secret|password/i,
					);
				}
				// The node's tool type, as n8n loads it from the installed package.
				expect(
					example.nodes.filter((node) => node.type === `${PACKAGE_NAME}.outreachSequencesTool`),
				).toHaveLength(4);
			});

			test('Get_Use_Case: the use case exactly as the service sent it; one GET, with the key', async () => {
				await sandbox().reset();
				const result = await call(client, 'Get_Use_Case', { useCaseId: 'uc-1' });
				expect(result.isError).toBeFalsy();
				expect(itemsOf(result)).toEqual([await sandbox().record('useCases', 'uc-1')]);
				await expectOneRequest('GET', '/v1/use_cases/uc-1');
			});

			test.each([
				{
					tool: 'Archive_Contact' as const,
					args: { contactId: 'c-42' },
					url: '/v1/contacts/c-42/archive',
					records: 'contacts' as const,
					id: 'c-42',
				},
				{
					tool: 'Archive_Contact_List' as const,
					args: { contactListId: 'list-1' },
					url: '/v1/contact_lists/list-1/archive',
					records: 'contactLists' as const,
					id: 'list-1',
				},
			])(
				'$tool: one archive, and the archived record back',
				async ({ tool, args, url, records, id }) => {
					await sandbox().reset();
					const result = await call(client, tool, args);
					expect(result.isError).toBeFalsy();
					await expectOneRequest('POST', url);
					const archived = await sandbox().record(records, id);
					expect(archived?.status).toBe('archived');
					expect(itemsOf(result)).toEqual([archived]);
				},
			);

			test('Create_Sequence: the name from the client, in the body exactly; one create; the new sequence back', async () => {
				await sandbox().reset();
				const name = `MCP follow-up over ${kind}`;
				const result = await call(client, 'Create_Sequence', { name });
				expect(result.isError).toBeFalsy();
				expect(JSON.parse(await expectOneRequest('POST', '/v1/sequences'))).toEqual({ name });
				const [created] = itemsOf(result) as Array<{ id: string }>;
				expect(created).toEqual(await sandbox().record('sequences', created.id));
				expect(created).toMatchObject({ name });
			});

			test('an unknown ID: an error result that names the object, the ID and the status; the next call on the session works', async () => {
				await sandbox().reset();
				const failed = await call(client, 'Get_Use_Case', { useCaseId: 'zz-404' });
				expect(failed.isError).toBe(true);
				expect(failed.content).toHaveLength(1);
				expect(failed.content[0].text).toContain('Use case "zz-404" was not found (HTTP 404)');
				const requests = await sandbox().requests();
				expect(
					requests.map((request) => `${request.method} ${request.url} ${request.status}`),
				).toEqual(['GET /v1/use_cases/zz-404 404']);

				const next = await call(client, 'Get_Use_Case', { useCaseId: 'uc-1' });
				expect(next.isError).toBeFalsy();
				expect(itemsOf(next)).toEqual([await sandbox().record('useCases', 'uc-1')]);
			});

			test.each([
				['no token', undefined],
				['a wrong token', 'not-the-token'],
			])('a client with %s is refused before any tool is listed', async (_label, token) => {
				const refused = await connect(kind, token).then(
					async (connected) => {
						await connected.close();
						return undefined;
					},
					(error: unknown) => error as Error & { code?: number },
				);
				expect(refused).toBeInstanceOf(Error);
				// The SDK's transport error carries the HTTP status n8n answered with.
				expect(refused?.code).toBe(403);
				received.push(refused?.message);
			});
		});

		test('a client that only speaks stdio, through mcp-remote as the README sets it up: the four tools, and a call that works', async () => {
			// The README's configuration: `npx mcp-remote <URL> --header Authorization:${AUTH_HEADER}`,
			// with the token in the AUTH_HEADER environment variable, which mcp-remote expands.
			const transport = new StdioClientTransport({
				command: process.execPath,
				args: [
					path.join(ROOT, 'node_modules', 'mcp-remote', 'dist', 'proxy.js'),
					endpoint().href,
					'--header',
					'Authorization:${AUTH_HEADER}',
				],
				env: {
					PATH: process.env.PATH ?? '',
					HOME: process.env.HOME ?? tmpdir(),
					AUTH_HEADER: `Bearer ${MCP_TOKEN}`,
					MCP_REMOTE_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'outreach-e2e-mcp-remote-')),
				},
				stderr: 'pipe',
			});
			let stderr = '';
			transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
			const client = new Client({ name: 'outreach-e2e-stdio', version: '1.0.0' });
			try {
				await client.connect(transport);
				const { tools } = await client.listTools();
				received.push(tools);
				expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(TOOLS).sort());
				await sandbox().reset();
				const result = await call(client, 'Get_Use_Case', { useCaseId: 'uc-1' });
				expect(result.isError).toBeFalsy();
				expect(itemsOf(result)).toEqual([await sandbox().record('useCases', 'uc-1')]);
				await expectOneRequest('GET', '/v1/use_cases/uc-1');
			} finally {
				await client.close();
				recordLog(`mcp-${version}-mcp-remote`, stderr);
			}
		});

		test.each([
			['no token', {}],
			['a wrong token', { Authorization: 'Bearer not-the-token' }],
		])('over plain HTTP, %s gets 403 and no MCP answer', async (_label, headers) => {
			const response = await fetch(endpoint(), {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					accept: 'application/json, text/event-stream',
					...headers,
				},
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
			});
			expect(response.status).toBe(403);
			expect(await response.text()).not.toMatch(/Get_Use_Case|"tools"/);
		});

		test('the API key is in nothing a client received and in nothing n8n printed', () => {
			expect(received.length).toBeGreaterThan(10);
			expect(JSON.stringify(received)).not.toContain(sandbox().apiKey);
			expect(n8n.log()).not.toContain(sandbox().apiKey);
		});
	},
);
