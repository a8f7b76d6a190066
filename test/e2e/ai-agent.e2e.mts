// The node as a tool, in real n8n (`n8n start`) with the package installed
// from its tarball, one n8n for both callers:
// - n8n's AI Agent, its OpenAI Chat Model pointed at a scripted stand-in
//   (harness/stand-in-model.mts: it calls the tool n8n offered with the
//   arguments a test gives, then answers), this node its tool with fields from
//   $fromAI() (harness/agent-workflows.mts);
// - the MCP Server Trigger of examples/mcp-server.workflow.json, published,
//   and the official MCP TypeScript SDK's client over both transports n8n
//   offers (Streamable HTTP and SSE), and over stdio through mcp-remote as
//   the README sets it up.
// A failed call reads to either as text that names what failed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { AGENTS, agentWorkflow } from './harness/agent-workflows.mts';
import { OPERATIONS } from './harness/cli.mts';
import { recordLog } from './harness/logs.mts';
import { TRANSPORTS, connectMcp, mcpRemoteTransport } from './harness/mcp-clients.mts';
import { EXAMPLE, ROUTE, TOOLS, bearerCredential, example } from './harness/mcp-example.mts';
import {
	N8N_CURRENT,
	declaredToolDescription,
	outputsOf,
	type McpToolResult,
} from './harness/n8n.mts';
import { useN8n, useSandbox } from './harness/stage.mts';
import { startModel, type ChatRequest } from './harness/stand-in-model.mts';

const MCP_TOKEN = 'e2e-mcp-client-token-71c3';
/** Steps the fixed collection cannot take, as the model gives them in the JSON Body. */
const SEQUENCE = {
	name: 'From the model',
	schedules: [
		{ dayOffset: 0, hour: 9, minute: 30, delayInMinutes: 0, sequenceScripts: ['phone-1'] },
	],
};
const describedAs = (key: string) =>
	declaredToolDescription(...(key.split('/') as [string, string]));

describe(`n8n ${N8N_CURRENT}: the node as a tool`, () => {
	const sandbox = useSandbox(TEST_API_KEYS.aiAgent);
	let model: Awaited<ReturnType<typeof startModel>>;
	let args: Record<string, unknown> = {};
	beforeAll(async () => {
		model = await startModel(() => args);
	});
	afterAll(() => model?.close());
	const n8n = useN8n(() => ({
		version: N8N_CURRENT,
		name: `tools-${N8N_CURRENT}`,
		run: 'server',
		sandbox: sandbox(),
		credentials: [
			{
				id: 'agentModel',
				name: 'Stand-in model',
				type: 'openAiApi',
				data: { apiKey: 'sk-stand-in-not-a-real-key', url: model.url },
			},
			bearerCredential(MCP_TOKEN),
		],
		workflows: [...Object.entries(AGENTS).map(([id, agent]) => agentWorkflow(id, agent)), EXAMPLE],
		publish: [example.id],
		ready: [ROUTE],
	}));
	/** Everything the model and the MCP clients received, for the check that no API key is in it. */
	const received: unknown[] = [];
	afterAll(() => {
		recordLog(`tools-${N8N_CURRENT}-received`, JSON.stringify(received, null, 2));
		expect(received.length).toBeGreaterThan(10);
		expect(JSON.stringify(received)).not.toContain(sandbox().apiKey);
		expect(n8n.log()).not.toContain(sandbox().apiKey);
	});
	beforeEach(async () => await sandbox().reset());
	const requests = async () =>
		(await sandbox().requests()).map(
			(request) => `${request.method} ${request.url} ${request.status}`,
		);

	describe('as an AI Agent tool', () => {
		/** Runs the agent `id`, the model calling the tool with `toolArgs`: the run, and what n8n sent the model. */
		async function runAgent(id: keyof typeof AGENTS, toolArgs: Record<string, unknown>) {
			args = toolArgs;
			model.requests.length = 0;
			const { run } = await n8n.execute(id);
			const sent: ChatRequest[] = [...model.requests];
			received.push(sent);
			const tool = sent[1]?.messages.find((message) => message.role === 'tool');
			return { run, sent, result: JSON.parse(String(tool?.content)) as unknown };
		}

		test('Use Case › Get: the model sees the tool and its field, and gets the use case back', async () => {
			const { run, sent, result } = await runAgent('agentUseCase', { useCaseId: 'uc-1' });
			expect(run.error).toBeUndefined();
			expect(sent).toHaveLength(2);
			const [tool] = sent[0].tools!;
			expect(tool.function.description).toBe(describedAs('useCase/get'));
			expect(tool.function.parameters).toMatchObject({
				properties: { useCaseId: { type: 'string' } },
				required: ['useCaseId'],
			});
			expect(await requests()).toEqual(['GET /v1/use_cases/uc-1 200']);
			expect(result).toEqual([await sandbox().record('useCases', 'uc-1')]);
		});

		test.each([
			['agentArchive', { contactId: 'c-42' }, 'POST /v1/contacts/c-42/archive', undefined],
			[
				'agentCreate',
				{ name: 'Spring', timezone: 'Europe/Berlin' },
				'POST /v1/sequences',
				{ name: 'Spring', timezone: 'Europe/Berlin' },
			],
			['agentCreateJson', { sequence: SEQUENCE }, 'POST /v1/sequences', SEQUENCE],
		] as const)(
			'%s: the fields from the model, one request, the record back',
			async (id, toolArgs, sent, body) => {
				const { run, result } = await runAgent(id, toolArgs);
				expect(run.error).toBeUndefined();
				const [request] = await sandbox().requests();
				expect([`${request.method} ${request.url}`, (await sandbox().requests()).length]).toEqual([
					sent,
					1,
				]);
				if (body) expect(JSON.parse(request.body)).toEqual(body);
				const [record] = result as Array<{ id: string }>;
				expect(record).toEqual(await sandbox().record(body ? 'sequences' : 'contacts', record.id));
			},
		);

		test('a failing call (unknown ID): the agent goes on, and the model gets the failure, naming the ID, as the tool result', async () => {
			const { run, result } = await runAgent('agentUseCase', { useCaseId: 'zz-404' });
			// On Error is left at Stop: as a tool, the failure is still the result.
			expect(run.error).toBeUndefined();
			expect(await requests()).toEqual(['GET /v1/use_cases/zz-404 404']);
			expect(result).toEqual([{ error: expect.stringContaining('"zz-404"') }]);
			const [[answer]] = outputsOf(run, 'AI Agent');
			expect(String(answer.json.output)).toContain('zz-404');
		});
	});

	describe.each(TRANSPORTS)('behind the MCP Server Trigger, over %s', (kind) => {
		let client: Client;
		beforeAll(async () => {
			client = await connectMcp(new URL(`${n8n.server.url}${ROUTE}`), kind, MCP_TOKEN);
		});
		afterAll(async () => await client?.close());
		const call = async (name: string, value: string) => {
			const tool = TOOLS.find((entry) => entry.name === name)!;
			const result = (await client.callTool({
				name,
				arguments: { [tool.field]: value },
			})) as McpToolResult;
			received.push(result);
			return result;
		};

		test('tools/list: a tool per registered operation, each with its description and its $fromAI field, required', async () => {
			expect(TOOLS.map((tool) => tool.key).sort()).toEqual(OPERATIONS.map(({ key }) => key).sort());
			const { tools } = await client.listTools();
			received.push(tools);
			expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
			for (const { name, key, field, description } of TOOLS) {
				const listed = tools.find((tool) => tool.name === name)!;
				expect(listed.description).toBe(describedAs(key));
				expect(listed.inputSchema).toMatchObject({
					type: 'object',
					properties: { [field]: { type: 'string', description } },
					required: [field],
				});
				// Nothing a client fills in asks for the key or where the service is.
				expect(Object.keys(listed.inputSchema.properties ?? {})).toEqual([field]);
			}
		});

		test.each(TOOLS)('$name: one request, its record back', async ({ name, key }) => {
			const { route, values } = OPERATIONS.find((operation) => operation.key === key)!;
			const result = await call(name, values[0]);
			expect(result.isError).toBeFalsy();
			const [record] = JSON.parse(result.content[0].text!) as Array<{ id: string }>;
			expect(record).toEqual(await sandbox().record(route.collection as 'sequences', record.id));
			expect(await sandbox().requests()).toHaveLength(1);
		});

		test('an unknown ID: an error result naming it; the next call on the session works', async () => {
			const failed = await call('Get_Use_Case', 'zz-404');
			expect(failed.isError).toBe(true);
			expect(failed.content[0].text).toContain('"zz-404"');
			expect((await call('Get_Use_Case', 'uc-1')).isError).toBeFalsy();
			expect(await requests()).toEqual([
				'GET /v1/use_cases/zz-404 404',
				'GET /v1/use_cases/uc-1 200',
			]);
		});

		test.each([
			['no token', undefined],
			['a wrong token', 'not-the-token'],
		])('a client with %s is refused (403) before any tool is listed', async (_, token) => {
			const refused = await connectMcp(new URL(`${n8n.server.url}${ROUTE}`), kind, token).then(
				async (connected) => void (await connected.close()),
				(error: unknown) => error as Error & { code?: number },
			);
			expect(refused?.code).toBe(403);
		});
	});

	test('a client that only speaks stdio, through mcp-remote as the README sets it up: the tools, and a call that works', async () => {
		const transport = mcpRemoteTransport(new URL(`${n8n.server.url}${ROUTE}`), MCP_TOKEN);
		let stderr = '';
		transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const client = new Client({ name: 'outreach-e2e-stdio', version: '1.0.0' });
		try {
			await client.connect(transport);
			expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
			const result = (await client.callTool({
				name: 'Get_Use_Case',
				arguments: { useCaseId: 'uc-1' },
			})) as McpToolResult;
			received.push(result);
			expect(JSON.parse(result.content[0].text!)).toEqual([
				await sandbox().record('useCases', 'uc-1'),
			]);
		} finally {
			await client.close();
			recordLog(`tools-${N8N_CURRENT}-mcp-remote`, stderr);
		}
	});
});
