// What a user does in the editor, through the REST routes the editor calls:
// save a changed node, click Execute workflow, and Executions › Retry; then
// wait for the execution to end and read what a node put out.
import { major } from '../../../scripts/n8n/versions.mts';
import type { ExecutedItem } from './n8n.mts';
import type { Execution, ExecutionSummary, N8n } from './stage.mts';
import type { WorkflowNode } from './workflows.mts';

interface StoredWorkflow {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	pinData?: Record<string, unknown> | null;
	versionId: string;
	/** 2.x: what the editor sends back as expectedChecksum, so that a save never overwrites a newer one. */
	checksum?: string;
}

export const getWorkflow = (n8n: N8n, id: string) =>
	n8n.rest<StoredWorkflow>('GET', `/workflows/${id}`);

/**
 * Changes one node and saves the workflow, as the editor's Save does:
 * `PATCH /rest/workflows/<id>` with the whole workflow and the versionId it
 * was read at (1.x), and its checksum (2.x). Returns the saved workflow.
 */
export async function saveNode(
	n8n: N8n,
	workflowId: string,
	nodeName: string,
	change: (node: WorkflowNode) => void,
): Promise<StoredWorkflow> {
	const workflow = await getWorkflow(n8n, workflowId);
	const node = workflow.nodes.find((candidate) => candidate.name === nodeName);
	if (!node) throw new Error(`The workflow ${workflowId} has no node ${nodeName}`);
	change(node);
	const { name, nodes, connections, settings, pinData, versionId, checksum } = workflow;
	return await n8n.rest<StoredWorkflow>('PATCH', `/workflows/${workflowId}`, {
		name,
		nodes,
		connections,
		settings,
		pinData,
		versionId,
		...(checksum === undefined ? {} : { expectedChecksum: checksum }),
	});
}

/** Publish (2.x) or the Active toggle (1.x), as the editor calls it. */
export async function publish(n8n: N8n, workflowId: string): Promise<void> {
	const { versionId } = await getWorkflow(n8n, workflowId);
	if (major(n8n.version) >= 2)
		await n8n.rest('POST', `/workflows/${workflowId}/activate`, { versionId });
	else await n8n.rest('PATCH', `/workflows/${workflowId}`, { active: true, versionId });
}

const ENDED = new Set(['success', 'error', 'crashed', 'canceled']);

/** Polls an execution until n8n says how it ended. */
export async function waitForEnd(n8n: N8n, id: string, timeoutMs = 120_000): Promise<Execution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await n8n.execution(id);
		if (ENDED.has(execution.status)) return execution;
		if (Date.now() > deadline)
			throw new Error(`Execution ${id} is still ${execution.status} after ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/**
 * Execute workflow, from the Manual Trigger `trigger`, as the editor calls
 * it: `POST /rest/workflows/<id>/run`. 2.x runs the saved workflow and reads
 * only the trigger to start from; 1.x takes the workflow in the body.
 * Resolves once the execution has ended.
 */
export async function runManually(
	n8n: N8n,
	workflowId: string,
	trigger = 'Start',
): Promise<Execution> {
	const start = { startNodes: [], triggerToStartFrom: { name: trigger } };
	const body =
		major(n8n.version) >= 2
			? { workflowId, ...start }
			: { workflowData: await getWorkflow(n8n, workflowId), ...start };
	const started = await n8n.rest<{ executionId?: string; waitingForWebhook?: boolean }>(
		'POST',
		`/workflows/${workflowId}/run`,
		body,
	);
	if (started.executionId === undefined)
		throw new Error(`Execute workflow started no execution: ${JSON.stringify(started)}`);
	return await waitForEnd(n8n, String(started.executionId));
}

/** Execute workflow, and what n8n printed while it ran: the run as `n8n execute` would give it. */
export async function executeManually(
	n8n: N8n,
	workflowId: string,
): Promise<{ run: Execution['data']['resultData']; log: string }> {
	const before = n8n.log().length;
	const execution = await runManually(n8n, workflowId);
	return { run: execution.data.resultData, log: n8n.log().slice(before) };
}

/**
 * Executions › Retry, as the Executions list calls it
 * (`POST /rest/executions/<id>/retry`), which answers once the retry has
 * ended; then the retry, as n8n lists it.
 */
export async function retryExecution(
	n8n: N8n,
	workflowId: string,
	id: string,
	loadWorkflow: boolean,
): Promise<ExecutionSummary> {
	await n8n.rest('POST', `/executions/${id}/retry`, { loadWorkflow });
	const retried = (await n8n.executions(workflowId)).find(
		(execution) => String(execution.retryOf) === id,
	);
	if (!retried) throw new Error(`No retry of execution ${id} is listed`);
	return retried;
}

/** The items a node put out on its first output in its last run of an execution. */
export function lastOutput(execution: Execution, node: string): ExecutedItem[] {
	const runs = execution.data.resultData.runData[node] ?? [];
	return runs.at(-1)?.data?.main?.[0] ?? [];
}
