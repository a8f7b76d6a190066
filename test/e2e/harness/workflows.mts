// The suites' own workflows, as n8n stores them: a chain of nodes, each with
// an id and a place on the canvas, joined one after another; sub-nodes (an
// agent's model and tool) joined to the node they serve.
import { NODE_TYPE } from './n8n.mts';

export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters?: Record<string, unknown>;
	[setting: string]: unknown;
}

/** What sub-node `node` is to the node named `to`: `as` is the connection's type, such as `ai_tool`. */
export interface Attached {
	node: WorkflowNode;
	to: string;
	as: string;
}

export const MANUAL_TRIGGER: WorkflowNode = {
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	parameters: {},
};

/** The Outreach Sequences API credential `id` (named `name`), as a node refers to it. */
export const outreachCredential = (id: string, name = id) => ({
	outreachSequencesApi: { id, name },
});

/** This package's node (its type as n8n gives an npm-installed package) with these parameters and settings. */
export const outreachNode = (
	name: string,
	parameters: Record<string, unknown>,
	settings: Record<string, unknown> = {},
): WorkflowNode => ({
	name,
	type: NODE_TYPE,
	typeVersion: 1,
	parameters,
	...settings,
});

/** A Webhook trigger on POST /webhook/<path>, answering with what the last node put out. */
export const webhookTrigger = (
	path: string,
	answer: Record<string, unknown> = {},
): WorkflowNode => ({
	name: 'Webhook',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	webhookId: `${path}-hook`,
	parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', ...answer, options: {} },
});

const idOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const link = (node: string, type: string) => ({ [type]: [[{ node, type, index: 0 }]] });

/** The workflow `id`: `chain` runs one after another from its first node, a trigger; `attached` sub-nodes sit under it. */
export function workflowOf(id: string, chain: WorkflowNode[], attached: Attached[] = []) {
	const place = (node: WorkflowNode, position: number[]) => ({
		id: idOf(node.name),
		position,
		parameters: {},
		...node,
	});
	const connections: Record<string, Record<string, unknown>> = {};
	chain
		.slice(1)
		.forEach((node, index) => (connections[chain[index].name] = link(node.name, 'main')));
	for (const { node, to, as } of attached) connections[node.name] = link(to, as);
	return {
		id,
		name: `Outreach e2e: ${id}`,
		active: false,
		nodes: [
			...chain.map((node, index) => place(node, [index * 220, 0])),
			...attached.map(({ node }, index) => place(node, [160 + index * 200, 220])),
		],
		connections,
		settings: { executionOrder: 'v1' },
	};
}
