// The crash chain of issue 43 (table 1), step by step as a user takes it:
// a webhook starts 200 creates under a 10/s limit with default settings (On
// Error = Stop); n8n is killed after about 8 s and started again;
// Executions › Retry of the crashed execution stops on the first item whose
// outcome is unknown; the user says what to do in Unconfirmed Earlier Try,
// saves, and retries the failed retry with the currently saved workflow,
// once more if that fails too. What each step did is read back here.
import type { SandboxProcess } from '../../harness/sandbox.mts';
import {
	crashAndRecover,
	executionIds,
	hintsOf,
	newExecutions,
	outputOf,
	probeEnded,
} from './crash.mts';
import { retryExecution, saveNode, waitForEnd } from './editor-rest.mts';
import { CREATE_NODE, byName, names, postEvent, type ByName } from './re-runs.mts';
import type { Execution, N8n } from './stage.mts';

export const RATE = 10;
export const KILL_AFTER_MS = 8_000;
export const ITEMS = 200;

export type Say = 'countAsDone' | 'sendAgain';

export interface Chain {
	event: Array<{ name: string }>;
	atKill: ByName;
	crashed: Execution;
	first: Execution;
	/** The retries of the failed retry, with the saved workflow: one, or two when the first of them failed. */
	later: Execution[];
	after: ByName;
	times: Record<string, number>;
}

/** One workflow of the chain: Webhook › Split Out › Create Sequence (On Error = Stop), against a sandbox of its own at 10/s. */
export interface Side {
	workflowId: string;
	sandbox: SandboxProcess;
	say: Say;
	prefix: string;
}

/** The say in Request Options › Unconfirmed Earlier Try, saved as the editor saves it. */
export async function saveSay(n8n: N8n, workflowId: string, say: Say): Promise<void> {
	await saveNode(n8n, workflowId, CREATE_NODE, (node) => {
		const options = (node.parameters?.requestOptions ?? {}) as Record<string, unknown>;
		node.parameters = {
			...node.parameters,
			requestOptions: { ...options, unconfirmedEarlierTry: say },
		};
	});
}

async function retried(n8n: N8n, workflowId: string, id: string, saved: boolean) {
	const retry = await retryExecution(n8n, workflowId, id, saved);
	return await waitForEnd(n8n, retry.id, 180_000);
}

/**
 * Both sides' webhooks called at once, so that one kill and one restart
 * serve both; then, side by side, the retry of the crash, the side's say
 * saved, and the retries of the failed retry.
 */
export async function crashChains(n8n: N8n, sides: Side[]): Promise<Chain[]> {
	const events = sides.map((side) => names(ITEMS, side.prefix));
	await Promise.all(sides.map((side) => side.sandbox.reset()));
	await Promise.all(sides.map((side) => probeEnded(n8n, side.workflowId)));
	const before = await Promise.all(sides.map((side) => executionIds(n8n, side.workflowId)));
	const started = Date.now();
	const answers = await Promise.all(
		sides.map((side, index) => postEvent(n8n, side.workflowId, events[index])),
	);
	if (answers.some((answer) => answer.status !== 200))
		throw new Error(`The webhooks answered ${answers.map((answer) => answer.status).join(', ')}`);
	const running = await Promise.all(
		sides.map(async (side, index) => (await newExecutions(n8n, side.workflowId, before[index]))[0]),
	);
	const created = async (side: Side) => (await side.sandbox.summary()).sequencesCreated;
	const { atKill, crashed } = await crashAndRecover(
		n8n,
		running,
		// After about 8 s, and on a slow machine once the first creates are made, so that the kill lands mid-run.
		async () =>
			Date.now() - started >= KILL_AFTER_MS &&
			(await Promise.all(sides.map(created))).every((count) => count >= RATE),
		() => Promise.all(sides.map((side) => byName(side.sandbox))),
	);
	const recoveredAfterMs = Date.now() - started;
	const chains: Chain[] = [];
	for (const [index, side] of sides.entries()) {
		const begun = Date.now();
		const first = await retried(n8n, side.workflowId, crashed[index].id, false);
		await saveSay(n8n, side.workflowId, side.say);
		const later = [await retried(n8n, side.workflowId, first.id, true)];
		if (later[0].status === 'error')
			later.push(await retried(n8n, side.workflowId, later[0].id, true));
		chains.push({
			event: events[index],
			atKill: atKill[index],
			crashed: crashed[index],
			first,
			later,
			after: await byName(side.sandbox),
			times: { recoveredAfterMs, retriesTookMs: Date.now() - begun },
		});
	}
	return chains;
}

/** The last retry's items, with each one's name. */
export function lastItems(chain: Chain) {
	const last = chain.later.at(-1) as Execution;
	const output = outputOf(last, CREATE_NODE).map((item) => item.json);
	return { last, output, hints: hintsOf(last, CREATE_NODE) };
}
