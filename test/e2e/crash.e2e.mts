// One crash (issues 36, 43, 52) in real n8n (`n8n start`, SQLite): six executions of 60 creates
// share one service at 30/s; n8n's process group gets SIGKILL mid-run, as a deploy or an OOM kill
// ends it, and n8n starts again on the same folder and database. Then each way on:
// - On Error = Continue: Executions › Retry, then the sender delivers the same webhook again;
// - On Error = Stop, four executions at once (their journals share the node's row): the retry stops
//   on an unknown item, Count as Done is saved (`PATCH /rest/workflows/<id>`), and the failed retry
//   is retried with the saved workflow;
// - On Error = Stop, the same with Send Again.
// Nothing the service confirmed is created twice. Figures: artifacts/e2e/re-runs-figures.json.
import { TEST_API_KEYS } from '../harness/keys.mts';
import {
	crashAndRecover,
	executionIds,
	isSkipped,
	newExecutions,
	outcomeOf,
	outcomesOf,
	outputOf,
	probeEnded,
	total,
} from './harness/crash.mts';
import { retryExecution, saveNode, waitForEnd } from './harness/editor-rest.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_CURRENT } from './harness/n8n.mts';
import {
	CREATE_NODE,
	byName,
	createsWhatTheEventLists,
	names,
	postEvent,
	twice,
	type ByName,
} from './harness/re-runs.mts';
import { useN8n, useSandbox, type Execution, type N8n } from './harness/stage.mts';

const SUITE = 'crash';
const RATE = 30;
const ITEMS = 60;
const CONTINUE = 'outreach-crash-continue';
const DONE = 'outreach-crash-done';
const AGAIN = 'outreach-crash-again';
/** Each execution's names, by prefix, and its workflow. */
const RUNS: Array<[string, string]> = [
	['C', CONTINUE],
	['D', DONE],
	['E', DONE],
	['F', DONE],
	['G', DONE],
	['A', AGAIN],
];

type Say = 'countAsDone' | 'sendAgain';

interface Chain {
	prefix: string;
	crashed: Execution;
	first: Execution;
	/** The retries of the failed retry, with the saved workflow. */
	later: Execution[];
}

const lastOf = (chain: Chain) => chain.later.at(-1) ?? chain.first;
const itemsOf = (execution: Execution) => outputOf(execution, CREATE_NODE).map((item) => item.json);
const nameAt = (prefix: string, index: number) => `${prefix}${index + 1}`;
const ofPrefix = (prefix: string, counts: Map<string, number>) =>
	new Map([...counts].filter(([name]) => name.startsWith(prefix)));

/** Which event a chain ran: the first name Split Out put out in any of its executions. */
const prefixOf = (executions: Execution[]) =>
	executions
		.map((execution) => outputOf(execution, 'Split Out')[0]?.json.name)
		.find((name) => typeof name === 'string')
		?.charAt(0) ?? '';

async function retried(n8n: N8n, workflowId: string, id: string, saved: boolean) {
	const retry = await retryExecution(n8n, workflowId, id, saved);
	return await waitForEnd(n8n, retry.id, 300_000);
}

/** Saves the say in Request Options › Unconfirmed Earlier Try, as the editor does. */
const saveSay = (n8n: N8n, workflowId: string, say: Say) =>
	saveNode(n8n, workflowId, CREATE_NODE, (node) => {
		node.parameters = { ...node.parameters, requestOptions: { unconfirmedEarlierTry: say } };
	});

/** The crashed executions retried as they were; the say saved; each failed retry retried with the saved workflow, once more if that fails too. */
async function wayOn(n8n: N8n, workflowId: string, crashed: Execution[], say: Say) {
	const firsts = await Promise.all(
		crashed.map(async (one) => ({
			crashed: one,
			first: await retried(n8n, workflowId, one.id, false),
		})),
	);
	await saveSay(n8n, workflowId, say);
	return await Promise.all(
		firsts.map(async ({ crashed: one, first }) => {
			const later =
				first.status === 'error' ? [await retried(n8n, workflowId, first.id, true)] : [];
			if (later[0]?.status === 'error')
				later.push(await retried(n8n, workflowId, later[0].id, true));
			return { prefix: prefixOf([first, one, ...later]), crashed: one, first, later };
		}),
	);
}

describe(`n8n ${N8N_CURRENT}: one crash, and each way on`, () => {
	const sandbox = useSandbox(TEST_API_KEYS.crash, ['--rate-limit', String(RATE)]);
	const n8n = useN8n(() => ({
		version: N8N_CURRENT,
		name: `${SUITE}-${N8N_CURRENT}`,
		run: 'server',
		sandbox: sandbox(),
		workflows: [
			createsWhatTheEventLists(
				CONTINUE,
				{ settings: { onError: 'continueRegularOutput' } },
				'onReceived',
			),
			createsWhatTheEventLists(DONE, {}, 'onReceived'),
			createsWhatTheEventLists(AGAIN, {}, 'onReceived'),
		],
		publish: [CONTINUE, DONE, AGAIN],
		ready: [CONTINUE, DONE, AGAIN].map((id) => `/webhook/${id}`),
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(TEST_API_KEYS.crash);
	});
	let atKill: ByName;
	let after: ByName;
	let retry: Execution;
	let again: Execution;
	let sentBeforeAgain: number;
	const chains = new Map<string, Chain>();

	test('SIGKILL mid-run of six executions, n8n started again: each is marked crashed, and each way on runs to its end', async () => {
		await sandbox().reset();
		const workflows = [CONTINUE, DONE, AGAIN];
		for (const id of workflows) await probeEnded(n8n, id);
		const before = await Promise.all(workflows.map((id) => executionIds(n8n, id)));
		const answers = await Promise.all(
			RUNS.map(([prefix, id]) => postEvent(n8n, id, names(ITEMS, prefix))),
		);
		expect(answers.map((answer) => answer.status)).toEqual(RUNS.map(() => 200));
		const running = (
			await Promise.all(
				workflows.map(async (id, index) => {
					const count = RUNS.filter(([, of]) => of === id).length;
					return (await newExecutions(n8n, id, before[index], count)).map((run) => [id, run]);
				}),
			)
		).flat();
		const recovered = await crashAndRecover(
			n8n,
			running.map(([, run]) => run),
			// Once each execution has had some of its creates made, or one is half done: the kill lands before any ends.
			async () => {
				const { created } = await byName(sandbox());
				const made = RUNS.map(([prefix]) => total(ofPrefix(prefix, created)));
				return made.every((count) => count >= 3) || made.some((count) => count >= ITEMS / 2);
			},
			() => byName(sandbox()),
		);
		atKill = recovered.atKill;
		const crashed = (id: string) =>
			recovered.crashed.filter((_, index) => running[index][0] === id);
		const [continued, done, sent] = await Promise.all([
			(async () => {
				retry = await retried(n8n, CONTINUE, crashed(CONTINUE)[0].id, false);
				sentBeforeAgain = total(ofPrefix('C', (await byName(sandbox())).sent));
				const ids = await executionIds(n8n, CONTINUE);
				await postEvent(n8n, CONTINUE, names(ITEMS, 'C'));
				const [id] = await newExecutions(n8n, CONTINUE, ids);
				again = await waitForEnd(n8n, id, 300_000);
				return retry;
			})(),
			wayOn(n8n, DONE, crashed(DONE), 'countAsDone'),
			wayOn(n8n, AGAIN, crashed(AGAIN), 'sendAgain'),
		]);
		for (const chain of [...done, ...sent]) chains.set(chain.prefix, chain);
		after = await byName(sandbox());
		recordFigures(SUITE, N8N_CURRENT, `six executions of ${ITEMS} at ${RATE}/s, one SIGKILL`, {
			createdBeforeKill: total(atKill.created),
			sentBeforeKill: total(atKill.sent),
			createdTwice: twice(after.created),
			continueRetry: { status: continued.status, failedByOutcome: outcomesOf(itemsOf(continued)) },
			chains: [...chains.values()].map((chain) => ({
				prefix: chain.prefix,
				retries: [chain.first, ...chain.later].map((execution) => execution.status),
				skipped: itemsOf(lastOf(chain)).filter(isSkipped).length,
			})),
		});
		expect(total(atKill.created)).toBeGreaterThan(0);
		expect(total(atKill.created)).toBeLessThan(RUNS.length * ITEMS);
		expect([...chains.keys()].sort()).toEqual(['A', 'D', 'E', 'F', 'G']);
		for (const chain of chains.values())
			expect(chain.first).toMatchObject({ mode: 'retry', retryOf: chain.crashed.id });
	}, 900_000);

	test('#36 #43 Continue, Executions › Retry: each item is created once, output as done (what the crash confirmed), or fails as mayHaveActed', () => {
		const output = itemsOf(retry);
		expect(retry).toMatchObject({ mode: 'retry', status: 'success' });
		expect(output).toHaveLength(ITEMS);
		for (const [index, item] of output.entries()) {
			const name = nameAt('C', index);
			if (isSkipped(item))
				expect({ name, item, before: atKill.created.get(name) }).toEqual({
					name,
					item: { skipped: true, id: null, reason: expect.any(String) },
					before: 1,
				});
			else if (item.error === undefined) expect(item).toEqual(after.records.get(name));
			else expect({ name, outcome: outcomeOf(item) }).toEqual({ name, outcome: 'mayHaveActed' });
			if (atKill.created.has(name))
				expect({ name, settled: isSkipped(item) || outcomeOf(item) === 'mayHaveActed' }).toEqual({
					name,
					settled: true,
				});
		}
		expect(output.filter(isSkipped).length).toBeGreaterThan(0);
		// Marked only at its turn: at most Items per Batch (32) unknown without the service receiving it.
		const unsent = output.filter(
			(item, index) => outcomeOf(item) === 'mayHaveActed' && !atKill.sent.has(nameAt('C', index)),
		);
		expect(unsent.length).toBeLessThanOrEqual(32);
	});

	test('#52 then the same webhook again: it sends nothing; each item is output as done or fails as mayHaveActed', () => {
		const output = itemsOf(again);
		expect(output).toHaveLength(ITEMS);
		expect(output.every((item) => isSkipped(item) || outcomeOf(item) === 'mayHaveActed')).toBe(
			true,
		);
		expect(total(ofPrefix('C', after.sent))).toBe(sentBeforeAgain);
		expect(twice(ofPrefix('C', after.created))).toEqual([]);
	});

	test('#43 Count as Done, four executions at once: no sequence is created twice, and each chain ends in a success, one item per input', () => {
		for (const prefix of ['D', 'E', 'F', 'G']) {
			const chain = chains.get(prefix) as Chain;
			const output = itemsOf(lastOf(chain));
			expect({ prefix, status: lastOf(chain).status, items: output.length }).toEqual({
				prefix,
				status: 'success',
				items: ITEMS,
			});
			expect(twice(ofPrefix(prefix, after.created))).toEqual([]);
			for (const [index, item] of output.entries())
				if (!isSkipped(item))
					expect({ index, item }).toEqual({
						index,
						item: after.records.get(nameAt(prefix, index)),
					});
		}
		// What the crashed tries created is not created again.
		for (const name of [...atKill.created.keys()].filter((held) => /^[D-G]/.test(held)))
			expect({ name, held: after.created.get(name) }).toEqual({ name, held: 1 });
	});

	test('#43 Send Again: every sequence exists; only items the crashed try sent without an answer are created twice, once more', () => {
		const chain = chains.get('A') as Chain;
		const output = itemsOf(lastOf(chain));
		expect([lastOf(chain).status, output.length]).toEqual(['success', ITEMS]);
		for (const index of output.keys()) expect(after.created.has(nameAt('A', index))).toBe(true);
		for (const name of twice(ofPrefix('A', after.created)))
			expect({
				name,
				sentBeforeKill: atKill.sent.has(name),
				held: after.created.get(name),
			}).toEqual({
				name,
				sentBeforeKill: true,
				held: 2,
			});
	});
});
