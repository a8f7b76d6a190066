// What the crash and queue suites share: a run killed mid-way as a deploy, an OOM kill or a host
// restart ends it (SIGKILL to n8n's process group), n8n started again on the same user folder and
// database, its recovery waited for, and how a node's items came out of a run.
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

/** An item output as done without the service's answer (`{ skipped, id, reason }`): confirmed by a crashed try, or counted as done. */
export const isSkipped = (item: Record<string, unknown> | undefined) =>
	item?.skipped === true && !('key' in item);

/** Polls `read` every `ms` until it gives a value, or fails after `timeoutMs` saying `what`. */
async function until<T>(
	read: () => Promise<T | undefined>,
	what: () => string,
	timeoutMs: number,
	ms = 200,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(what());
		await sleep(ms);
	}
}

/**
 * The readiness probe's empty POST started an execution that n8n may list only after the probe's
 * answer: wait until it is listed and ended, so that it is not taken for the event's.
 */
export const probeEnded = (n8n: N8n, workflowId: string) =>
	until(
		async () => {
			const runs = await n8n.executions(workflowId);
			return runs.length > 0 &&
				runs.every((run) => run.status !== 'running' && run.status !== 'new')
				? true
				: undefined;
		},
		() => `The probe's execution of ${workflowId} did not end`,
		60_000,
	);

/** The ids of a workflow's executions now: what runs after this is new. */
export async function executionIds(n8n: N8n, workflowId: string): Promise<Set<string>> {
	return new Set((await n8n.executions(workflowId)).map((run) => run.id));
}

/** Polls until `count` executions of the workflow that are not in `before` are listed; their ids, oldest first. */
export const newExecutions = (n8n: N8n, workflowId: string, before: Set<string>, count = 1) =>
	until(
		async () => {
			const fresh = (await n8n.executions(workflowId)).filter((run) => !before.has(run.id));
			return fresh.length >= count ? fresh.map((run) => run.id).reverse() : undefined;
		},
		() => `Fewer than ${count} new executions of ${workflowId}`,
		60_000,
		100,
	);

/**
 * Waits until `killNow` says so, sends SIGKILL to main's process group, starts n8n again and waits
 * until each of `running` is marked crashed. Resolves with what `atKill` read right after the
 * kill, and the crashed executions, in the order of `running`.
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
	for (const id of running)
		crashed.push(
			await until(
				async () => {
					const execution = await n8n.execution(id);
					return execution.status === 'crashed' ? execution : undefined;
				},
				() => `Execution ${id} is not marked crashed after a restart`,
				120_000,
				500,
			),
		);
	return { atKill: read, crashed };
}

/** The items a node put out on output `index` in its last run of an execution. */
export function outputOf(execution: Execution, node: string, index = 0): ExecutedItem[] {
	const runs = execution.data.resultData.runData[node] ?? [];
	return runs.at(-1)?.data?.main?.[index] ?? [];
}
