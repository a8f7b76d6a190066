/**
 * n8n's MCP Server Trigger: the node that serves the tools wired to it to MCP
 * clients. A tool's thrown error is what it marks as an error result
 * (`isError: true`, with the error's message as the text); whatever a tool
 * returns, it sends as a normal result.
 */
export const MCP_SERVER_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** The suffix n8n adds to a node's type for its AI tool variant. */
export const TOOL_VARIANT_SUFFIX = 'Tool';

/**
 * Everything tool mode reads of n8n, and the first n8n release that has it.
 * None of it is a documented API, so each is checked against real n8n
 * installs (scripts/n8n-signals.mts, run by `npm run try:n8n` for each
 * version in README › Compatibility); a change fails there, naming the
 * signal. Where a signal is missing (isToolExecution before 2.3), tool mode
 * works without it.
 */
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

/**
 * Whether a failed item becomes an output item `{ error: <text> }` instead of
 * failing the node.
 *
 * When the node runs as a tool (n8n gives the tool variant the node's type
 * plus "Tool"), the caller decides, whatever On Error says, because each
 * caller reads a failure in one form only:
 * - an AI Agent goes on after a failed tool call, and a thrown error reaches
 *   its model as an empty result, so the failure's plain-words text is the
 *   tool's result;
 * - the MCP Server Trigger reads only a thrown error as a failure, so the
 *   node fails, and the MCP client gets an error result with the same text.
 *
 * `callerType` is the type of the node that runs the tool: the AI Agent, the
 * MCP Server Trigger, or undefined when it is not known.
 */
export function failuresAsItems(
	continueOnFail: boolean,
	nodeType: string,
	callerType?: string,
): boolean {
	if (!isToolVariant(nodeType)) return continueOnFail;
	return !failsToCaller(callerType);
}

/** The type n8n gives this node when it is an AI tool: `<package>.outreachSequencesTool`. */
export function isToolVariant(nodeType: string): boolean {
	return nodeType.endsWith(TOOL_VARIANT_SUFFIX);
}

/** What n8n shows a node about how it is being run. */
export interface RunSignals {
	/** The type of the node whose execution data n8n handed this one (`getExecuteData().node`). */
	executeDataNodeType: string | undefined;
	/** Whether that node is this node itself. */
	ownExecuteData: boolean;
	/** n8n's `isToolExecution()` (n8n 2.x): run through a tool call, not as a step of the workflow. */
	toolExecution: boolean;
}

/**
 * The type of the node that runs this one as a tool, or undefined when it is
 * not known.
 * - n8n hands a tool its caller's execution data: the AI Agent's, or the MCP
 *   Server Trigger's.
 * - In queue mode, n8n 2.x's worker runs an MCP Server Trigger's tool call
 *   (and nothing else) as a tool call that holds the tool's own execution
 *   data: that is the trigger too.
 */
export function toolCallerType(run: RunSignals): string | undefined {
	if (run.ownExecuteData) return run.toolExecution ? MCP_SERVER_TRIGGER_TYPE : undefined;
	return run.executeDataNodeType;
}

/** Whether a tool's caller reads only a thrown error as a failed call. */
export function failsToCaller(callerType: string | undefined): boolean {
	return callerType === MCP_SERVER_TRIGGER_TYPE;
}
