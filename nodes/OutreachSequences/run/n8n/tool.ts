/** Tool mode: which node runs this one as a tool, and whether its failures become items or are thrown. */
import type { IExecuteFunctions } from 'n8n-workflow';

// Undocumented n8n behaviour: scripts/n8n-signals.mts checks each against real n8n installs.
export const MCP_SERVER_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
export const TOOL_VARIANT_SUFFIX = 'Tool';

export const isToolVariant = (nodeType: string) => nodeType.endsWith(TOOL_VARIANT_SUFFIX);

export interface RunSignals {
	executeDataNodeType: string | undefined;
	ownExecuteData: boolean;
	toolExecution: boolean;
}

/** In queue mode a worker runs only an MCP Server Trigger's tool call with the tool's own execute data. */
export function toolCallerType(run: RunSignals): string | undefined {
	if (run.ownExecuteData) return run.toolExecution ? MCP_SERVER_TRIGGER_TYPE : undefined;
	return run.executeDataNodeType;
}

/** As a tool: an AI Agent's model sees a thrown error as empty, an MCP trigger sees only thrown ones. */
export function failuresAsItems(continueOnFail: boolean, nodeType: string, callerType?: string) {
	return isToolVariant(nodeType) ? callerType !== MCP_SERVER_TRIGGER_TYPE : continueOnFail;
}

export function callerTypeOf(context: IExecuteFunctions): string | undefined {
	const caller = context.getExecuteData().node;
	return toolCallerType({
		executeDataNodeType: caller.type,
		ownExecuteData: caller.name === context.getNode().name,
		toolExecution: typeof context.isToolExecution === 'function' && context.isToolExecution(),
	});
}
