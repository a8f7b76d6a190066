/**
 * Whether a failed item becomes an output item `{ error: <text> }` instead of
 * failing the node.
 *
 * Always true when the node runs as an AI Agent's tool (n8n gives the tool
 * variant the node's type plus "Tool"): the agent goes on after a failed tool
 * call whatever On Error says. The failure's plain-words text as the tool's
 * result is then what the model can read and act on; a thrown error would
 * reach it as an empty result.
 */
export function failuresAsItems(continueOnFail: boolean, nodeType: string): boolean {
	return continueOnFail || isToolVariant(nodeType);
}

/** The type n8n gives this node when it is an AI Agent's tool: `<package>.outreachSequencesTool`. */
export function isToolVariant(nodeType: string): boolean {
	return nodeType.endsWith('Tool');
}
