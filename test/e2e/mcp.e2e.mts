// Usable from any MCP client: in real n8n (`n8n start`), with the package
// installed from its tarball, the example workflow examples/mcp-server.workflow.json
// (an MCP Server Trigger with Bearer Auth and the four operations wired to it
// as tools, their fields from $fromAI) is imported and published, and the
// official MCP TypeScript SDK's client talks to it over both transports n8n
// offers, Streamable HTTP and SSE, on the same URL.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { recordLog } from './harness/logs.mts';
import {
	TRANSPORTS,
	connectMcp,
	mcpRemoteTransport,
	type Transport,
} from './harness/mcp-clients.mts';
import {
	ROUTE,
	TOOLS,
	example,
	exampleSetup,
	fromAiDescription,
	type ToolName,
} from './harness/mcp-example.mts';
import {
	N8N_CURRENT,
	PACKAGE_NAME,
	declaredToolDescription,
	type McpToolResult,
} from './harness/n8n.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

const MCP_TOKEN = 'e2e-mcp-client-token-71c3';

describe.each([N8N_CURRENT])(
	'n8n %s: the four operations as tools behind the MCP Server Trigger',
	(version) => {
		const sandbox = useSandbox(TEST_API_KEYS.mcp);
		// The example imported and published, with the credentials it refers to (harness/mcp-example.mts).
		const n8n = useN8n(() => exampleSetup(version, sandbox(), MCP_TOKEN));
		const endpoint = () => new URL(`${n8n.server.url}${ROUTE}`);
		/** Everything any client received, for the check that no API key is in it. */
		const received: unknown[] = [];

		afterAll(() => {
			recordLog(`mcp-${version}-client`, JSON.stringify(received, null, 2));
		});

		const connect = (kind: Transport, token: string | undefined) =>
			connectMcp(endpoint(), kind, token);

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

			test('an unknown ID: an error result that names the ID; the next call on the session works', async () => {
				await sandbox().reset();
				const failed = await call(client, 'Get_Use_Case', { useCaseId: 'zz-404' });
				expect(failed.isError).toBe(true);
				expect(failed.content).toHaveLength(1);
				// The node's words (test/unit/texts.test.mts), not n8n's: they name the use case.
				expect(failed.content[0].text).toContain('"zz-404"');
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
			// The README's configuration, the token in AUTH_HEADER (harness/mcp-clients.mts).
			const transport = mcpRemoteTransport(endpoint(), MCP_TOKEN);
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
