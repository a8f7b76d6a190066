// The MCP example as shipped (examples/mcp-server.workflow.json): an MCP
// Server Trigger with Bearer Auth and the operations wired to it as tools,
// their fields from $fromAI; where it listens, and each tool as a client
// sees it, read from the example itself.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './n8n.mts';
import type { WorkflowNode } from './workflows.mts';

export const EXAMPLE = path.join(ROOT, 'examples', 'mcp-server.workflow.json');

type ExampleNode = WorkflowNode & {
	parameters: Record<string, string>;
	credentials?: Record<string, { id: string; name: string }>;
};
export const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as {
	id: string;
	nodes: ExampleNode[];
};
const trigger = example.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
/** Where the trigger listens. */
export const ROUTE = `/mcp/${trigger.parameters.path}`;

/** The Bearer credential the trigger refers to, holding `token`. */
export const bearerCredential = (token: string) => ({
	...trigger.credentials!.httpBearerAuth,
	type: 'httpBearerAuth',
	data: { token },
});

/** Each tool of the example: its MCP name (n8n's: the node's name, spaces as _), operation and its one $fromAI field. */
export const TOOLS = example.nodes
	.filter((node) => node !== trigger)
	.map(({ name, parameters }) => {
		const [field, description] = Object.entries(parameters).flatMap(([key, value]) => {
			const match = /\$fromAI\('(\w+)', '([^']+)', 'string'\)/.exec(value);
			return match && match[1] === key ? [key, match[2]] : [];
		});
		return {
			name: name.replace(/ /g, '_'),
			key: `${parameters.resource}/${parameters.operation}`,
			field,
			description,
		};
	});
