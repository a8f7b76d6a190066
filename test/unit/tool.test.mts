// As a tool, a failure reaches the caller in the one form that caller reads as
// a failure, whatever On Error says: the AI Agent's model gets it as the
// tool's result, and the MCP Server Trigger's client gets an error result.
import {
	MCP_SERVER_TRIGGER_TYPE as MCP,
	failuresAsItems,
	toolCallerType,
} from '../../nodes/OutreachSequences/run/n8n/tool.ts';
import { NODE_TYPE } from '../harness/engine.mts';

const AGENT = '@n8n/n8n-nodes-langchain.agent';
const TOOL = `${NODE_TYPE}Tool`;

test.each([
	// The AI Agent (v2.x, LangChain), and the MCP Server Trigger in regular mode: the caller's execution data.
	[AGENT, false, true, AGENT],
	[MCP, false, true, MCP],
	// n8n 1.x has no isToolExecution; the caller's execution data still names it.
	[MCP, false, false, MCP],
	// The queue-mode worker's MCP tool call: its own execution data, run as a tool.
	[TOOL, true, true, MCP],
	// A step of the workflow, or the AI Agent v3's tool step (n8n 2.x engine requests): nobody to tell apart.
	[TOOL, true, false, undefined],
	[NODE_TYPE, true, false, undefined],
])('execute data %s, own %s, tool execution %s → caller %s', (type, own, tool, expected) => {
	const run = { executeDataNodeType: type, ownExecuteData: own, toolExecution: tool };
	expect(toolCallerType(run)).toBe(expected);
});

test.each([
	// The regular node: On Error decides, whoever runs it.
	[false, NODE_TYPE, MCP, false],
	[true, NODE_TYPE, MCP, true],
	// An AI Agent's tool (or any caller but the MCP Server Trigger): the failure is the result.
	[false, TOOL, AGENT, true],
	[false, TOOL, '@n8n/n8n-nodes-langchain.toolExecutor', true],
	[false, TOOL, undefined, true],
	// The MCP Server Trigger's tool: the node fails, whatever On Error says.
	[true, TOOL, MCP, false],
])(
	'On Error continues %s, node %s, run by %s → failures as items: %s',
	(go, type, by, expected) => {
		expect(failuresAsItems(go, type, by)).toBe(expected);
	},
);
