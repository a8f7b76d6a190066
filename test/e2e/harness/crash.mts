// What the crash suites share: a run killed mid-way as a deploy, an OOM kill
// or a host restart ends it (SIGKILL to n8n's process group), n8n started
// again on the same user folder and database, its recovery waited for, and
// how a node's items came out of a run.
import type { ExecutedItem } from './n8n.mts';
import type { Execution, N8n } from './stage.mts';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const total = (counts: Map<string, number>) =>
	[...counts.values()].reduce((sum, count) => sum + count, 0);

/** A failed item's outcome, in its `message` (docs/errors.md). */
export const outcomeOf = (item: Record<string, unknown> | undefined) =>
	(item?.message as { outcome?: unknown } | undefined)?.outcome;

/** How many failed items had each outcome. */
export function outcomesOf(items: Array<Record<string, unknown>>): Record<string, number> {
	const outcomes: Record<string, number> = {};
	for (const item of items.filter((candidate) => candidate.error !== undefined))
		outcomes[String(outcomeOf(item))] = (outcomes[String(outcomeOf(item))] ?? 0) + 1;
	return outcomes;
}

/**
 * An item a retry output as done without the service's answer: one a crashed
 * try had confirmed, whose answer was lost with it; or, where the user said
 * Count as Done, one counted as done. Both output `{ skipped, id, reason }`,
 * with no key (reRunTexts.ts; their words: test/unit/texts-re-run.test.mts,
 * texts-re-run.test.mts). With no say, only what a crash confirmed is so.
 */
export const isSkipped = (item: Record<string, unknown> | undefined) =>
	item?.skipped === true && !('key' in item);

/** Polls until n8n's recovery has marked the execution crashed. */
export async function untilCrashed(n8n: N8n, id: string, timeoutMs = 120_000): Promise<Execution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await n8n.execution(id);
		if (execution.status === 'crashed') return execution;
		if (Date.now() > deadline)
			throw new Error(`Execution ${id} is ${execution.status}, not crashed, after a restart`);
		await sleep(500);
	}
}

/**
 * The readiness probe's empty POST to the webhook started an execution that n8n
 * may list only after the probe's answer: wait until it is listed and ended, so
 * that it is not taken for the event's. In a fresh-clone check on 1.123.81 it
 * was, and the test waited for a finished probe to be marked crashed.
 */
export async function probeEnded(n8n: N8n, workflowId: string, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const runs = await n8n.executions(workflowId);
		if (runs.length > 0 && runs.every((run) => run.status !== 'running' && run.status !== 'new'))
			return;
		if (Date.now() > deadline)
			throw new Error(
				`The probe's execution of ${workflowId} did not end: ${JSON.stringify(runs)}`,
			);
		await sleep(200);
	}
}

/** The ids of a workflow's executions now: what runs after this is new. */
export async function executionIds(n8n: N8n, workflowId: string): Promise<Set<string>> {
	return new Set((await n8n.executions(workflowId)).map((run) => run.id));
}

/** Polls until `count` executions of the workflow that are not in `before` are listed; their ids, oldest first. */
export async function newExecutions(
	n8n: N8n,
	workflowId: string,
	before: Set<string>,
	count = 1,
	timeoutMs = 60_000,
): Promise<string[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const fresh = (await n8n.executions(workflowId)).filter((run) => !before.has(run.id));
		if (fresh.length >= count) return fresh.map((run) => run.id).reverse();
		if (Date.now() > deadline)
			throw new Error(`${fresh.length} new executions of ${workflowId}, not ${count}`);
		await sleep(100);
	}
}

/**
 * Waits until `killNow` says so, sends SIGKILL to main's process group,
 * starts n8n again and waits until each of `running` is marked crashed.
 * Resolves with what `atKill` read right after the kill, and the crashed executions.
 */
export async function crashAndRecover<T>(
	n8n: N8n,
	running: string[],
	killNow: () => Promise<boolean>,
	atKill: () => Promise<T>,
): Promise<{ atKill: T; crashed: Execution[] }> {
	while (!(await killNow())) await sleep(200);
	await n8n.crashMain();
	const read = await atKill();
	await n8n.startMain();
	const crashed: Execution[] = [];
	for (const id of running) crashed.push(await untilCrashed(n8n, id));
	return { atKill: read, crashed };
}

/** The items a node put out on output `index` in its last run of an execution. */
export function outputOf(execution: Execution, node: string, index = 0): ExecutedItem[] {
	const runs = execution.data.resultData.runData[node] ?? [];
	return runs.at(-1)?.data?.main?.[index] ?? [];
}

/** The execution hints a node's last run added (n8n keeps them with its run data). */
export function hintsOf(execution: Execution, node: string): string[] {
	const runs = execution.data.resultData.runData[node] as Array<{
		hints?: Array<{ message: string }>;
	}>;
	return (runs?.at(-1)?.hints ?? []).map((hint) => hint.message);
}
