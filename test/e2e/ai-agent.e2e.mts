// The node as a tool of n8n's AI Agent, in real n8n with the package installed
// from its tarball: Manual Trigger → AI Agent, with an OpenAI Chat Model whose
// credential points at a scripted stand-in for an OpenAI-compatible
// chat-completions server that this suite owns (nothing leaves the machine),
// and this node as the agent's tool with its fields from $fromAI().
// The stand-in answers the first call with a call of the tool n8n offered,
// with arguments for the parameters n8n's schema names, and the next call
// with a final answer; it records what n8n sent (harness/stand-in-model.mts;
// the workflows: harness/agent-workflows.mts).

import { TEST_API_KEYS } from '../harness/keys.mts';
import { AGENTS, agentWorkflow } from './harness/agent-workflows.mts';
import { N8N_CURRENT, declaredToolDescription, outputsOf } from './harness/n8n.mts';
import { useN8n, useSandbox } from './harness/stage.mts';
import { startModel, type ChatRequest } from './harness/stand-in-model.mts';

const MODEL_KEY = 'sk-stand-in-not-a-real-key';

describe.each([N8N_CURRENT])('n8n %s: the node as an AI Agent tool', (version) => {
	const sandbox = useSandbox(TEST_API_KEYS.aiAgent);
	let model: Awaited<ReturnType<typeof startModel>>;
	let args: Record<string, unknown> = {};
	beforeAll(async () => {
		model = await startModel(() => args);
	});
	const n8n = useN8n(() => ({
		version,
		name: `agent-${version}`,
		run: 'server',
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
		// On Error is left at Stop: as a tool, the failure is still the result, in the node's words, which
		// name the use case (test/unit/texts.test.mts), and the agent goes on with them.
		const content = String(toolMessage(sent)?.content);
		expect(JSON.parse(content)).toEqual([{ error: expect.stringContaining('"zz-404"') }]);
		const [[answer]] = outputsOf(run, 'AI Agent');
		expect(String(answer.json.output)).toContain(content);
		expectNoKeyToTheModel(sent);
	});
});
