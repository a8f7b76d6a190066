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
import {
	N8N_CURRENT,
	N8N_MAINTAINED,
	PACKAGE_NAME,
	declaredToolDescription,
	outputsOf,
} from './harness/n8n.mts';
import { SANDBOX_CREDENTIAL_ID, useN8n, useSandbox } from './harness/stage.mts';
import { MANUAL_TRIGGER, outreachCredential, workflowOf } from './harness/workflows.mts';

const MODEL_KEY = 'sk-stand-in-not-a-real-key';

interface ChatRequest {
	messages: Array<{ role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown }>;
	tools?: Array<{
		type: string;
		function: {
			name: string;
			description: string;
			parameters: { properties?: Record<string, unknown>; required?: string[] };
		};
	}>;
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
					? {
							role: 'assistant',
							content: `Done. The tool said: ${String(toolResult?.content ?? '')}`,
						}
					: {
							role: 'assistant',
							content: null,
							tool_calls: [
								{
									id: 'call_1',
									type: 'function',
									function: { name: tool.function.name, arguments: JSON.stringify(argumentsFor()) },
								},
							],
						};
			res.setHeader('content-type', 'application/json');
			res.end(
				JSON.stringify({
					id: `chatcmpl-${requests.length}`,
					object: 'chat.completion',
					created: 1_700_000_000,
					model: 'stand-in',
					choices: [
						{ index: 0, message, finish_reason: message.content === null ? 'tool_calls' : 'stop' },
					],
					usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
				}),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
		requests,
		close: () => server.close(),
	};
}

/** Manual Trigger → AI Agent with `task`, its model the stand-in, its one tool this node with `tool` as its parameters. */
function agentWorkflow(
	id: string,
	{ task, tool }: { task: string; tool: Record<string, unknown> },
) {
	return workflowOf(
		id,
		[
			MANUAL_TRIGGER,
			{
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 2.2,
				parameters: { promptType: 'define', text: task, options: {} },
			},
		],
		[
			{
				node: {
					name: 'OpenAI Chat Model',
					type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
					typeVersion: 1.2,
					parameters: { model: { __rl: true, mode: 'id', value: 'stand-in' }, options: {} },
					credentials: { openAiApi: { id: 'agentModel', name: 'Stand-in model' } },
				},
				to: 'AI Agent',
				as: 'ai_languageModel',
			},
			{
				node: {
					name: 'Outreach',
					type: `${PACKAGE_NAME}.outreachSequencesTool`,
					typeVersion: 1,
					parameters: tool,
					credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox'),
				},
				to: 'AI Agent',
				as: 'ai_tool',
			},
		],
	);
}

const useCaseId = "={{ $fromAI('useCaseId', 'The identifier of the use case', 'string') }}";

/** Each test's agent: what it is asked, and this node's parameters as its tool. */
const AGENTS = {
	agentUseCase: {
		task: 'Look up use case uc-1.',
		tool: { resource: 'useCase', operation: 'get', useCaseId },
	},
	agentArchive: {
		task: 'Archive contact c-42.',
		tool: {
			resource: 'contact',
			operation: 'archive',
			contactId:
				"={{ $fromAI('contactId', 'The identifier of the contact to archive', 'string') }}",
		},
	},
	agentCreate: {
		task: 'Create a sequence called Spring follow-up in Berlin time.',
		tool: {
			resource: 'sequence',
			operation: 'create',
			name: "={{ $fromAI('name', 'The name of the new sequence', 'string') }}",
			additionalFields: {
				timezone: "={{ $fromAI('timezone', 'The timezone of the schedule times', 'string') }}",
			},
		},
	},
	agentCreateJson: {
		task: 'Create a sequence with one phone step at 9:30 on day 0.',
		tool: {
			resource: 'sequence',
			operation: 'create',
			specifyBody: 'json',
			jsonBody: "={{ $fromAI('sequence', 'The sequence as a JSON object', 'json') }}",
		},
	},
	agentNotFound: {
		task: 'Look up use case zz-404.',
		tool: { resource: 'useCase', operation: 'get', useCaseId },
	},
};

describe.each([N8N_CURRENT, N8N_MAINTAINED])('n8n %s: the node as an AI Agent tool', (version) => {
	const sandbox = useSandbox(TEST_API_KEYS.aiAgent);
	let model: Awaited<ReturnType<typeof startModel>>;
	let args: Record<string, unknown> = {};
	beforeAll(async () => {
		model = await startModel(() => args);
	});
	const n8n = useN8n(() => ({
		version,
		name: `agent-${version}`,
		run: 'cli',
		sandbox: sandbox(),
		credentials: [
			{
				id: 'agentModel',
				name: 'Stand-in model',
				type: 'openAiApi',
				data: { apiKey: MODEL_KEY, url: model.url },
			},
		],
		workflows: Object.entries(AGENTS).map(([id, agent]) => agentWorkflow(id, agent)),
	}));
	afterAll(() => {
		model?.close();
	});

	/** Runs the agent `id`, the model calling the tool with `toolArgs`: the run, the service's requests, and what n8n sent the model. */
	async function runAgent(id: keyof typeof AGENTS, toolArgs: Record<string, unknown>) {
		args = toolArgs;
		model.requests.length = 0;
		await sandbox().reset();
		const { run } = await n8n.execute(id);
		return { run, requests: await sandbox().requests(), sent: [...model.requests] };
	}

	const toolMessage = (sent: ChatRequest[]) =>
		sent[1]?.messages.find((message) => message.role === 'tool');

	function expectNoKeyToTheModel(sent: ChatRequest[]) {
		expect(sent.length).toBeGreaterThan(0);
		expect(JSON.stringify(sent)).not.toContain(sandbox().apiKey);
	}

	test('Use Case › Get: the model sees the tool, fills useCaseId, and gets the use case back', async () => {
		const { run, requests, sent } = await runAgent('agentUseCase', { useCaseId: 'uc-1' });
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
		expect(
			requests.map((request) => [request.method, request.url, request.headers['x-api-key']]),
		).toEqual([['GET', '/v1/use_cases/uc-1', sandbox().apiKey]]);
		expect(JSON.parse(String(toolMessage(sent)?.content))).toEqual([
			await sandbox().record('useCases', 'uc-1'),
		]);
		const [[answer]] = outputsOf(run, 'AI Agent');
		expect(String(answer.json.output)).toMatch(/^Done\. The tool said: /);
		expectNoKeyToTheModel(sent);
	});

	test('Contact › Archive: contactId from the model, one archive, the contact back to the model', async () => {
		const { run, requests, sent } = await runAgent('agentArchive', { contactId: 'c-42' });
		expect(run.error).toBeUndefined();
		expect(sent[0].tools![0].function.description).toBe(
			declaredToolDescription('contact', 'archive'),
		);
		expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			'POST /v1/contacts/c-42/archive',
		]);
		expect(JSON.parse(String(toolMessage(sent)?.content))).toEqual([
			await sandbox().record('contacts', 'c-42'),
		]);
		expectNoKeyToTheModel(sent);
	});

	test('Sequence › Create: name and timezone from the model, in the body exactly', async () => {
		const { run, requests, sent } = await runAgent('agentCreate', {
			name: 'Spring follow-up',
			timezone: 'Europe/Berlin',
		});
		expect(run.error).toBeUndefined();
		expect(Object.keys(sent[0].tools![0].function.parameters.properties ?? {}).sort()).toEqual([
			'name',
			'timezone',
		]);
		expect(
			requests.map((request) => [request.method, request.url, JSON.parse(request.body)]),
		).toEqual([['POST', '/v1/sequences', { name: 'Spring follow-up', timezone: 'Europe/Berlin' }]]);
		const [created] = JSON.parse(String(toolMessage(sent)?.content)) as Array<{
			id: string;
			name: string;
		}>;
		expect(created.id).toMatch(/^seq-/);
		expect(created.name).toBe('Spring follow-up');
		expectNoKeyToTheModel(sent);
	});

	test('Sequence › Create with the JSON Body from the model: the steps the fixed collection cannot take', async () => {
		const sequence = {
			name: 'From the model',
			schedules: [
				{ dayOffset: 0, hour: 9, minute: 30, delayInMinutes: 0, sequenceScripts: ['phone-1'] },
			],
		};
		const { run, requests, sent } = await runAgent('agentCreateJson', { sequence });
		expect(run.error).toBeUndefined();
		expect(requests.map((request) => JSON.parse(request.body))).toEqual([sequence]);
		expectNoKeyToTheModel(sent);
	});

	test('a failing call (unknown ID): the agent goes on, and the model gets the plain-words error as the tool result', async () => {
		const { run, requests, sent } = await runAgent('agentNotFound', { useCaseId: 'zz-404' });
		expect(run.error).toBeUndefined();
		expect(requests.map((request) => `${request.method} ${request.url} ${request.status}`)).toEqual(
			['GET /v1/use_cases/zz-404 404'],
		);
		// On Error is left at Stop: as a tool, the failure is still the result, in the node's words.
		expect(JSON.parse(String(toolMessage(sent)?.content))).toEqual([
			{ error: 'Use case "zz-404" was not found (HTTP 404): Resource not found' },
		]);
		const [[answer]] = outputsOf(run, 'AI Agent');
		expect(String(answer.json.output)).toContain('was not found');
		expectNoKeyToTheModel(sent);
	});
});
