// The AI Agent suite's workflows: Manual Trigger → AI Agent, with an OpenAI
// Chat Model whose credential points at the stand-in model
// (stand-in-model.mts), and this node as the agent's one tool, its fields
// from $fromAI(); and what each test's agent is asked.
import { PACKAGE_NAME } from './n8n.mts';
import { SANDBOX_CREDENTIAL_ID } from './stage.mts';
import { MANUAL_TRIGGER, outreachCredential, workflowOf } from './workflows.mts';

/** Manual Trigger → AI Agent with `task`, its model the stand-in, its one tool this node with `tool` as its parameters. */
export function agentWorkflow(
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

/** Each test's agent: what it is asked, and this node's parameters as its tool. */
export const AGENTS = {
	agentUseCase: {
		task: 'Look up use case uc-1.',
		tool: {
			resource: 'useCase',
			operation: 'get',
			useCaseId: "={{ $fromAI('useCaseId', 'The identifier of the use case', 'string') }}",
		},
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
};
