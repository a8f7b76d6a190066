// As a tool, a failure reaches the caller in the one form that caller reads as
// a failure, whatever On Error says: the AI Agent's model gets it as the
// tool's result, and the MCP Server Trigger's client gets an error result.
import {
	MCP_SERVER_TRIGGER_TYPE,
	failsToCaller,
	failuresAsItems,
	isToolVariant,
	toolCallerType,
} from '../../nodes/OutreachSequences/run/n8n/tool.ts';
import { NODE_TYPE } from '../harness/engine.mts';

const AGENT = '@n8n/n8n-nodes-langchain.agent';
const TOOL = `${NODE_TYPE}Tool`;

test('the tool variant is the node type plus "Tool", as n8n names it', () => {
	expect(isToolVariant(TOOL)).toBe(true);
	expect(isToolVariant(NODE_TYPE)).toBe(false);
});

test('the MCP Server Trigger is the type n8n ships in @n8n/n8n-nodes-langchain', () => {
	expect(MCP_SERVER_TRIGGER_TYPE).toBe('@n8n/n8n-nodes-langchain.mcpTrigger');
});

test.each([
	// The AI Agent (v2.x, LangChain): the tool gets the agent's execution data.
	{
		run: { executeDataNodeType: AGENT, ownExecuteData: false, toolExecution: true },
		expected: AGENT,
	},
	// The MCP Server Trigger in regular mode: the trigger's execution data.
	{
		run: {
			executeDataNodeType: MCP_SERVER_TRIGGER_TYPE,
			ownExecuteData: false,
			toolExecution: true,
		},
		expected: MCP_SERVER_TRIGGER_TYPE,
	},
	// n8n 1.x has no isToolExecution; the caller's execution data still names it.
	{
		run: {
			executeDataNodeType: MCP_SERVER_TRIGGER_TYPE,
			ownExecuteData: false,
			toolExecution: false,
		},
		expected: MCP_SERVER_TRIGGER_TYPE,
	},
	// The queue-mode worker's MCP tool call: its own execution data, run as a tool.
	{
		run: { executeDataNodeType: TOOL, ownExecuteData: true, toolExecution: true },
		expected: MCP_SERVER_TRIGGER_TYPE,
	},
	// A step of the workflow, or the AI Agent v3's tool step (n8n 2.x engine requests): nobody to tell apart.
	{
		run: { executeDataNodeType: TOOL, ownExecuteData: true, toolExecution: false },
		expected: undefined,
	},
	{
		run: { executeDataNodeType: NODE_TYPE, ownExecuteData: true, toolExecution: false },
		expected: undefined,
	},
])('run $run → caller $expected', ({ run, expected }) => {
	expect(toolCallerType(run)).toBe(expected);
});

test.each([
	{ caller: MCP_SERVER_TRIGGER_TYPE, expected: true },
	{ caller: AGENT, expected: false },
	{ caller: '@n8n/n8n-nodes-langchain.toolExecutor', expected: false },
	{ caller: undefined, expected: false },
])('caller $caller reads only a thrown error as a failure: $expected', ({ caller, expected }) => {
	expect(failsToCaller(caller)).toBe(expected);
});

test.each([
	// The regular node: On Error decides, whoever runs it.
	{ continueOnFail: false, type: NODE_TYPE, caller: NODE_TYPE, expected: false },
	{ continueOnFail: true, type: NODE_TYPE, caller: NODE_TYPE, expected: true },
	{ continueOnFail: false, type: NODE_TYPE, caller: MCP_SERVER_TRIGGER_TYPE, expected: false },
	{ continueOnFail: true, type: NODE_TYPE, caller: MCP_SERVER_TRIGGER_TYPE, expected: true },
	// An AI Agent's tool: the failure is the result, whatever On Error says.
	{ continueOnFail: false, type: TOOL, caller: AGENT, expected: true },
	{ continueOnFail: true, type: TOOL, caller: AGENT, expected: true },
	{ continueOnFail: false, type: TOOL, caller: undefined, expected: true },
	// The MCP Server Trigger's tool: the node fails, whatever On Error says.
	{ continueOnFail: false, type: TOOL, caller: MCP_SERVER_TRIGGER_TYPE, expected: false },
	{ continueOnFail: true, type: TOOL, caller: MCP_SERVER_TRIGGER_TYPE, expected: false },
])(
	'On Error continues: $continueOnFail, node $type, run by $caller → failures as items: $expected',
	({ continueOnFail, type, caller, expected }) => {
		expect(failuresAsItems(continueOnFail, type, caller)).toBe(expected);
	},
);
