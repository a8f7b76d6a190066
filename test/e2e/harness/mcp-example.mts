// The MCP example as shipped (examples/mcp-server.workflow.json): an MCP
// Server Trigger with Bearer Auth and the four operations wired to it as
// tools, their fields from $fromAI; the n8n that serves it, and what each
// tool must be.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxProcess } from '../../harness/sandbox.mts';
import { outreachApiCredential } from './credentials.mts';
import { ROOT } from './n8n.mts';
import type { N8nSetup } from './stage.mts';
import type { WorkflowNode } from './workflows.mts';

export const EXAMPLE = path.join(ROOT, 'examples', 'mcp-server.workflow.json');

type ExampleNode = WorkflowNode & {
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
};
export const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as {
	id: string;
	nodes: ExampleNode[];
};
export const trigger = example.nodes.find(
	(node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger',
)!;
export const exampleTool = (name: string) => example.nodes.find((node) => node.name === name)!;
/** Where the trigger listens. */
export const ROUTE = `/mcp/${String(trigger.parameters.path)}`;

/**
 * n8n `version` (`n8n start`) with the example imported and published, and
 * the credentials it refers to, by its ids: the sandbox, and the Bearer
 * `token` clients send.
 */
export function exampleSetup(version: string, sandbox: SandboxProcess, token: string): N8nSetup {
	const outreach = exampleTool('Get Use Case').credentials!.outreachSequencesApi;
	const bearer = trigger.credentials!.httpBearerAuth;
	return {
		version,
		name: `mcp-${version}`,
		run: 'server',
		credentials: [
			outreachApiCredential(outreach.id, sandbox.apiKey, sandbox.url, outreach.name),
			{ ...bearer, type: 'httpBearerAuth', data: { token } },
		],
		workflows: [EXAMPLE],
		publish: [example.id],
		ready: [ROUTE],
	};
}

/** What each tool must be: its operation, and the one field its $fromAI asks for. */
export const TOOLS = {
	Create_Sequence: {
		node: 'Create Sequence',
		resource: 'sequence',
		operation: 'create',
		field: 'name',
	},
	Archive_Contact: {
		node: 'Archive Contact',
		resource: 'contact',
		operation: 'archive',
		field: 'contactId',
	},
	Archive_Contact_List: {
		node: 'Archive Contact List',
		resource: 'contactList',
		operation: 'archive',
		field: 'contactListId',
	},
	Get_Use_Case: { node: 'Get Use Case', resource: 'useCase', operation: 'get', field: 'useCaseId' },
} as const;
export type ToolName = keyof typeof TOOLS;

/** The description the example's `$fromAI('<field>', '<description>', 'string')` gives its field. */
export function fromAiDescription(tool: ToolName): string {
	const { node, field } = TOOLS[tool];
	const expression = String(exampleTool(node).parameters[field]);
	const match = new RegExp(`\\$fromAI\\('${field}', '([^']+)', 'string'\\)`).exec(expression);
	if (!match)
		throw new Error(`The example's ${node} takes ${field} from no $fromAI: ${expression}`);
	return match[1];
}
