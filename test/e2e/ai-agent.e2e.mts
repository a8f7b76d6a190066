// The node as a tool of n8n's AI Agent, in real n8n with the package installed
// from its tarball: Manual Trigger → AI Agent, with an OpenAI Chat Model whose
// credential points at a scripted stand-in for an OpenAI-compatible
// chat-completions server that this suite owns (nothing leaves the machine),
// and this node as the agent's tool with its fields from $fromAI().
// The stand-in answers the first call with a call of the tool n8n offered,
// with arguments for the parameters n8n's schema names, and the next call
// with a final answer; it records what n8n sent.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { SandboxProcess } from '../harness/sandbox.mts';
import { recordLog } from './harness/logs.mts';
import { N8N_CURRENT, N8N_MAINTAINED, PACKAGE_NAME, declaredToolDescription, freePort, importCredentials, importWorkflows, n8nCli, n8nEnv, outputsOf, packPackage, prepareN8n, runDataOf, userFolderWithPackage } from './harness/n8n.mts';

const MODEL_KEY = 'sk-stand-in-not-a-real-key';

interface ChatRequest {
	messages: Array<{ role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown }>;
	tools?: Array<{ type: string; function: { name: string; description: string; parameters: { properties?: Record<string, unknown>; required?: string[] } } }>;
	stream?: boolean;
}

/** The stand-in model. `argumentsFor` gives the tool call's arguments from the parameter schema n8n sent. */
async function startModel(argumentsFor: () => Record<string, unknown>) {
	const requests: ChatRequest[] = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			const request = JSON.parse(body || '{}') as ChatRequest;
			requests.push(request);
			const toolResult = request.messages.find((message) => message.role === 'tool');
			const tool = request.tools?.[0];
			const message =
				toolResult || !tool
					? { role: 'assistant', content: `Done. The tool said: ${String(toolResult?.content ?? '')}` }
					: {
							role: 'assistant',
							content: null,
							tool_calls: [{ id: 'call_1', type: 'function', function: { name: tool.function.name, arguments: JSON.stringify(argumentsFor()) } }],
						};
			res.setHeader('content-type', 'application/json');
			res.end(
				JSON.stringify({
					id: `chatcmpl-${requests.length}`,
					object: 'chat.completion',
					created: 1_700_000_000,
					model: 'stand-in',
					choices: [{ index: 0, message, finish_reason: message.content === null ? 'tool_calls' : 'stop' }],
					usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
				}),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, close: () => server.close() };
}

function agentWorkflow(id: string, task: string, tool: Record<string, unknown>): Record<string, unknown> {
	return {
		id,
		name: id,
		active: false,
		nodes: [
			{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'agent',
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 2.2,
				position: [240, 0],
				parameters: { promptType: 'define', text: task, options: {} },
			},
			{
				id: 'model',
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.2,
				position: [160, 220],
				parameters: { model: { __rl: true, mode: 'id', value: 'stand-in' }, options: {} },
				credentials: { openAiApi: { id: 'agentModel', name: 'Stand-in model' } },
			},
			{
				id: 'tool',
				name: 'Outreach',
				type: `${PACKAGE_NAME}.outreachSequencesTool`,
				typeVersion: 1,
				position: [360, 220],
				parameters: tool,
				credentials: { outreachSequencesApi: { id: 'agentOutreach', name: 'Outreach sandbox' } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			Outreach: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

describe.each([N8N_CURRENT, N8N_MAINTAINED])('n8n %s: the node as an AI Agent tool', (version) => {
	let bin: string;
	let env: NodeJS.ProcessEnv;
	let sandbox: SandboxProcess;
	let model: Awaited<ReturnType<typeof startModel>>;
	let args: Record<string, unknown> = {};

	beforeAll(async () => {
		bin = prepareN8n(version);
		env = n8nEnv(await userFolderWithPackage(packPackage()), { N8N_RUNNERS_BROKER_PORT: String(await freePort()) });
		sandbox = await SandboxProcess.start(TEST_API_KEYS.aiAgent);
		model = await startModel(() => args);
		await importCredentials(bin, env, [
			{ id: 'agentModel', name: 'Stand-in model', type: 'openAiApi', data: { apiKey: MODEL_KEY, url: model.url } },
			{ id: 'agentOutreach', name: 'Outreach sandbox', type: 'outreachSequencesApi', data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
		]);
	});

	afterAll(async () => {
		model?.close();
		await sandbox?.close();
	});

	async function runAgent(id: string, task: string, tool: Record<string, unknown>, toolArgs: Record<string, unknown>) {
		args = toolArgs;
		model.requests.length = 0;
		await sandbox.reset();
		await importWorkflows(bin, env, [agentWorkflow(id, task, tool)]);
		const result = await n8nCli(bin, ['execute', `--id=${id}`, '--rawOutput'], env);
		const log = `exit ${result.code}\n${result.stdout}${result.stderr}`;
		recordLog(`agent-${version}-${id}`, log);
		return { run: runDataOf(result.stdout), log, requests: await sandbox.requests(), sent: [...model.requests] };
	}

	const toolMessage = (sent: ChatRequest[]) => sent[1]?.messages.find((message) => message.role === 'tool');

	function expectNoKeyToTheModel(sent: ChatRequest[]) {
		expect(sent.length).toBeGreaterThan(0);
		expect(JSON.stringify(sent)).not.toContain(sandbox.apiKey);
	}

	test('Use Case › Get: the model sees the tool, fills useCaseId, and gets the use case back', async () => {
		const { run, requests, sent } = await runAgent(
			'agentUseCase',
			'Look up use case uc-1.',
			{ resource: 'useCase', operation: 'get', useCaseId: "={{ $fromAI('useCaseId', 'The identifier of the use case', 'string') }}" },
			{ useCaseId: 'uc-1' },
		);
		expect(run.error).toBeUndefined();
		expect(sent).toHaveLength(2);
		const [tool] = sent[0].tools!;
		expect(tool.function.name).toBe('Outreach');
		expect(tool.function.description).toBe(declaredToolDescription('useCase', 'get'));
		expect(tool.function.description).toMatch(/^Gets one use case from the outreach service/);
		expect(tool.function.parameters).toMatchObject({
			type: 'object',
			properties: { useCaseId: { type: 'string', description: 'The identifier of the use case' } },
			required: ['useCaseId'],
		});
		expect(requests.map((request) => [request.method, request.url, request.headers['x-api-key']])).toEqual([['GET', '/v1/use_cases/uc-1', sandbox.apiKey]]);
		expect(JSON.parse(String(toolMessage(sent)?.content))).toEqual([await sandbox.record('useCases', 'uc-1')]);
		const [[answer]] = outputsOf(run, 'AI Agent');
		expect(String(answer.json.output)).toMatch(/^Done\. The tool said: /);
		expectNoKeyToTheModel(sent);
	});

	test('Contact › Archive: contactId from the model, one archive, the contact back to the model', async () => {
		const { run, requests, sent } = await runAgent(
			'agentArchive',
			'Archive contact c-42.',
			{ resource: 'contact', operation: 'archive', contactId: "={{ $fromAI('contactId', 'The identifier of the contact to archive', 'string') }}" },
			{ contactId: 'c-42' },
		);
		expect(run.error).toBeUndefined();
		expect(sent[0].tools![0].function.description).toBe(declaredToolDescription('contact', 'archive'));
		expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /v1/contacts/c-42/archive']);
		expect(JSON.parse(String(toolMessage(sent)?.content))).toEqual([await sandbox.record('contacts', 'c-42')]);
		expectNoKeyToTheModel(sent);
	});

	test('Sequence › Create: name and timezone from the model, in the body exactly', async () => {
		const { run, requests, sent } = await runAgent(
			'agentCreate',
			'Create a sequence called Spring follow-up in Berlin time.',
			{
				resource: 'sequence',
				operation: 'create',
				name: "={{ $fromAI('name', 'The name of the new sequence', 'string') }}",
				additionalFields: { timezone: "={{ $fromAI('timezone', 'The timezone of the schedule times', 'string') }}" },
			},
			{ name: 'Spring follow-up', timezone: 'Europe/Berlin' },
		);
		expect(run.error).toBeUndefined();
		expect(Object.keys(sent[0].tools![0].function.parameters.properties ?? {}).sort()).toEqual(['name', 'timezone']);
		expect(requests.map((request) => [request.method, request.url, JSON.parse(request.body)])).toEqual([
			['POST', '/v1/sequences', { name: 'Spring follow-up', timezone: 'Europe/Berlin' }],
		]);
		const [created] = JSON.parse(String(toolMessage(sent)?.content)) as Array<{ id: string; name: string }>;
		expect(created.id).toMatch(/^seq-/);
		expect(created.name).toBe('Spring follow-up');
		expectNoKeyToTheModel(sent);
	});

	test('Sequence › Create with the JSON Body from the model: the steps the fixed collection cannot take', async () => {
		const sequence = { name: 'From the model', schedules: [{ dayOffset: 0, hour: 9, minute: 30, delayInMinutes: 0, sequenceScripts: ['phone-1'] }] };
		const { run, requests, sent } = await runAgent(
			'agentCreateJson',
			'Create a sequence with one phone step at 9:30 on day 0.',
			{ resource: 'sequence', operation: 'create', specifyBody: 'json', jsonBody: "={{ $fromAI('sequence', 'The sequence as a JSON object', 'json') }}" },
			{ sequence },
		);
		expect(run.error).toBeUndefined();
		expect(requests.map((request) => JSON.parse(request.body))).toEqual([sequence]);
		expectNoKeyToTheModel(sent);
	});

	test('a failing call (unknown ID): the agent goes on, and the model gets the plain-words error as the tool result', async () => {
		const { run, requests, sent } = await runAgent(
			'agentNotFound',
			'Look up use case zz-404.',
			{ resource: 'useCase', operation: 'get', useCaseId: "={{ $fromAI('useCaseId', 'The identifier of the use case', 'string') }}" },
			{ useCaseId: 'zz-404' },
		);
		expect(run.error).toBeUndefined();
		expect(requests.map((request) => `${request.method} ${request.url} ${request.status}`)).toEqual(['GET /v1/use_cases/zz-404 404']);
		// On Error is left at Stop: as a tool, the failure is still the result, in the node's words.
		expect(JSON.parse(String(toolMessage(sent)?.content))).toEqual([{ error: 'Use case "zz-404" was not found (HTTP 404): Resource not found' }]);
		const [[answer]] = outputsOf(run, 'AI Agent');
		expect(String(answer.json.output)).toContain('was not found');
		expectNoKeyToTheModel(sent);
	});
});
