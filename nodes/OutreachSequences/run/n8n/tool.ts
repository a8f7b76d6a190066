/** Tool mode: which node runs this one as a tool, and whether its failures become items or are thrown. */
export const MCP_SERVER_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';

export const TOOL_VARIANT_SUFFIX = 'Tool';

/** Undocumented n8n behaviour; scripts/n8n-signals.mts checks each against real n8n installs. */
export const N8N_SIGNALS = {
	toolVariantSuffix: {
		reads: `a node's AI tool variant is its type plus "${TOOL_VARIANT_SUFFIX}" (n8n's convertNodeToAiTool)`,
		since: '1.60.0',
	},
	getExecuteData: {
		reads:
			"getExecuteData().node: the node whose execution data n8n hands this node (the tool's caller)",
		since: '1.0.0',
	},
	isToolExecution: {
		reads:
			'isToolExecution(): whether the node runs as a tool call rather than a workflow step (queue mode, MCP)',
		since: '2.3.0',
	},
	mcpTriggerType: {
		reads: `the MCP Server Trigger's node type, ${MCP_SERVER_TRIGGER_TYPE}`,
		since: '1.88.0',
	},
} as const;

export type N8nSignal = keyof typeof N8N_SIGNALS;

/** As a tool: an AI Agent's model sees a thrown error as empty, an MCP trigger sees only thrown ones. */
export function failuresAsItems(
	continueOnFail: boolean,
	nodeType: string,
	callerType?: string,
): boolean {
	if (!isToolVariant(nodeType)) return continueOnFail;
	return !failsToCaller(callerType);
}

export function isToolVariant(nodeType: string): boolean {
	return nodeType.endsWith(TOOL_VARIANT_SUFFIX);
}

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

export function failsToCaller(callerType: string | undefined): boolean {
	return callerType === MCP_SERVER_TRIGGER_TYPE;
}
