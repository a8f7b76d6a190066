// n8n's Remove Duplicates beside the node (issue 43 §3, "what users get" 5),
// in real n8n (`n8n start`, 2.x and 1.x): for each logic of "Remove Items
// Processed in Previous Executions" with Scope = Workflow, before Create
// Sequence in one workflow, (a) three runs one after another, (b) two
// webhook calls at the same moment and a third while their creates go out,
// (c) a run after the node's run was killed mid-way, its marks left behind.
// Remove Duplicates never fails ("Deduplication data was originally saved
// with an incompatible setting"), keeps and removes what its logic says, and
// no sequence is created twice. Then its Clean Database (Scope = Workflow)
// between the crash and Executions › Retry: the retry still outputs what the
// crashed try confirmed as done, and sends it not again. The untagged test
// is the harness's part (the kill); those marked #43 encode the behaviour.
// Figures: artifacts/e2e/re-runs-figures.json.
import { TEST_API_KEYS } from '../harness/keys.mts';
import type { SandboxProcess } from '../harness/sandbox.mts';
import { isSkipped, outcomesOf, outputOf, sleep } from './harness/crash.mts';
import { outreachApiCredential } from './harness/credentials.mts';
import { retryExecution, waitForEnd } from './harness/editor-rest.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_NODE_LINES } from './harness/n8n.mts';
import { CREATE_NODE, byName, figuresOf, twice, type ByName } from './harness/re-runs.mts';
import {
	cleanDatabase,
	credentialIdOf,
	crashMidRun,
	dedupeWorkflow,
	expectHeld,
	expectRan,
	itemsOf,
	namesOf,
	range,
	runAtOnce,
	runOnce,
	workflowIdOf,
	type EventItem,
	type Logic,
} from './harness/remove-duplicates.mts';
import { useN8n, useSandbox, type Execution } from './harness/stage.mts';

const SUITE = 'remove-duplicates';
const RATE = 10;
const ALL: Logic[] = ['new', 'higher', 'date'];
const INCOMPATIBLE = 'incompatible setting';
/** The crash: 40 creates per logic, the three at once, each against its own sandbox; killed once each has made 20, before any ends. */
const CRASHED = range(51, 90);

// On the current line only (N8N_NODE_LINES): the node's row is the same on 1.123.81 (n8n's
// store is one helper since 1.65, read in deduplication-helper.js of both).
describe.each(N8N_NODE_LINES)('n8n %s: Remove Duplicates beside the node', (version) => {
	const args = ['--rate-limit', String(RATE)];
	const sandboxes = Object.fromEntries(
		ALL.map((logic) => [logic, useSandbox(TEST_API_KEYS.removeDuplicates, args)]),
	) as Record<Logic, () => SandboxProcess>;
	const held = (logic: Logic) => byName(sandboxes[logic]());
	const n8n = useN8n(() => ({
		version,
		name: `${SUITE}-${version}`,
		run: 'server',
		credentials: ALL.map((logic) =>
			outreachApiCredential(
				credentialIdOf(logic),
				TEST_API_KEYS.removeDuplicates,
				sandboxes[logic]().url,
			),
		),
		workflows: ALL.map(dedupeWorkflow),
		publish: ALL.map(workflowIdOf),
		ready: ALL.flatMap((logic) => [
			`/webhook/${workflowIdOf(logic)}`,
			`/webhook/${workflowIdOf(logic)}-clean`,
		]),
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(TEST_API_KEYS.removeDuplicates);
		expect(n8n.log()).not.toContain(INCOMPATIBLE);
	});
	const figures = (scenario: string, extra: Record<string, unknown>, after: ByName) =>
		recordFigures(SUITE, version, scenario, { ...figuresOf(after), ...extra });

	test.each(ALL)(
		'#43 (a) %s: three runs one after another keep and remove what the logic says, and create each once',
		async (logic) => {
			const runs = [
				await runOnce(n8n, logic, itemsOf(logic, range(1, 4))),
				await runOnce(n8n, logic, itemsOf(logic, range(1, 6))),
				await runOnce(n8n, logic, itemsOf(logic, range(3, 8))),
			];
			const after = await held(logic);
			figures(
				`(a) ${logic}: three runs`,
				{
					runs: runs.map(({ status, kept, removed }) => ({
						status,
						kept: kept.length,
						removed: removed.length,
					})),
				},
				after,
			);
			expectRan(runs[0], logic, range(1, 4), []);
			expectRan(runs[1], logic, [5, 6], range(1, 4));
			expectRan(runs[2], logic, [7, 8], range(3, 6));
			expectHeld(after, namesOf(logic, range(1, 8)), 1);
		},
	);

	test.each(ALL)(
		'#43 (b) %s: two calls at once, and a third while their creates go out: no run fails, the logic holds, each created once',
		async (logic) => {
			const [a, b, c] = [
				itemsOf(logic, range(11, 25)),
				itemsOf(logic, range(26, 40)),
				itemsOf(logic, range(41, 43)),
			];
			const base = (await sandboxes[logic]().summary()).sequencesCreated;
			const both = runAtOnce(n8n, logic, [a, b]);
			// The third call's Remove Duplicates writes the row while both executions' creates go out.
			const until = Date.now() + 60_000;
			let made = 0;
			while (
				(made = (await sandboxes[logic]().summary()).sequencesCreated - base) < 5 &&
				Date.now() < until
			)
				await sleep(100);
			const third = await runOnce(n8n, logic, c);
			const [first, second] = await both;
			const after = await held(logic);
			figures(
				`(b) ${logic}: two at once, a third mid-run`,
				{
					madeWhenThirdCalled: made,
					kept: [first.kept.length, second.kept.length, third.kept.length],
				},
				after,
			);
			expect(made).toBeLessThan(a.length + b.length);
			const numbers = (list: EventItem[]) => list.map((item) => item.n);
			// The lists' values rise from a to b to c. A logic that keeps only higher values keeps a
			// list unless a higher one's Remove Duplicates ran to its end before this one's began;
			// when they overlap (n8n's store has no lock), either, but all or nothing.
			const runs = [
				{ run: first, list: a },
				{ run: second, list: b },
				{ run: third, list: c },
			];
			for (const [index, { run, list }] of runs.entries()) {
				const higher = runs.slice(index + 1).map(({ run: other }) => other.dedupe);
				// A higher list's Remove Duplicates ended before this one's began, or began before it ended.
				const higherFirst = higher.some((other) => other.end <= run.dedupe.start);
				const overlaps = higher.some((other) => other.start <= run.dedupe.end);
				const keeps = logic === 'new' || (!higherFirst && (!overlaps || run.kept.length > 0));
				if (keeps) expectRan(run, logic, numbers(list), []);
				else expectRan(run, logic, [], numbers(list));
			}
			expectHeld(after, [...first.kept, ...second.kept, ...third.kept], 1);
			expectHeld(after, first.removed, 0);
		},
	);

	const crash = {} as { atKill: Record<Logic, ByName>; crashed: Record<Logic, Execution> };
	const byLogic = (logic: Logic) => (counts: ByName) =>
		namesOf(logic, CRASHED).reduce((sum, name) => sum + (counts.created.get(name) ?? 0), 0);

	test('the three workflows killed mid-run (40 creates each), n8n started again: each execution is marked crashed', async () => {
		const lists = Object.fromEntries(
			ALL.map((logic) => [logic, itemsOf(logic, CRASHED)]),
		) as Record<Logic, EventItem[]>;
		Object.assign(
			crash,
			await crashMidRun(
				n8n,
				lists,
				async () => {
					const made = await Promise.all(
						ALL.map(async (logic) => byLogic(logic)(await held(logic))),
					);
					return Math.min(...made) >= 20 || Math.max(...made) >= 34;
				},
				async () =>
					Object.fromEntries(
						await Promise.all(ALL.map(async (logic) => [logic, await held(logic)])),
					) as Record<Logic, ByName>,
			),
		);
		const made = ALL.map((logic) => byLogic(logic)(crash.atKill[logic]));
		recordFigures(SUITE, version, '(c) crash: made per logic before the kill', { made });
		for (const count of made) expect(count).toBeGreaterThan(0);
		for (const count of made) expect(count).toBeLessThan(CRASHED.length);
	});

	test.each(ALL)(
		"#43 (c) %s: after the crash, with the node's marks left behind, a run keeps and removes what the logic says",
		async (logic) => {
			const run = await runOnce(n8n, logic, itemsOf(logic, [51, 52, 91, 92, 93, 94]));
			const after = await held(logic);
			figures(
				`(c) ${logic}: a run after the crash`,
				{ status: run.status, kept: run.kept.length },
				after,
			);
			expectRan(run, logic, [91, 92, 93, 94], [51, 52]);
			expectHeld(after, namesOf(logic, [91, 92, 93, 94]), 1);
			for (const name of namesOf(logic, [51, 52]))
				expect({ name, held: after.created.get(name) ?? 0 }).toEqual({
					name,
					held: crash.atKill[logic].created.get(name) ?? 0,
				});
		},
	);

	test.each(ALL)(
		'#43 %s: Clean Database between the crash and Executions › Retry takes nothing the retry knows: what the crash confirmed is output as done, nothing created twice',
		async (logic) => {
			const cleaned = await cleanDatabase(n8n, logic);
			expect(cleaned.status).toBe('success');
			const retry = await waitForEnd(
				n8n,
				(await retryExecution(n8n, workflowIdOf(logic), crash.crashed[logic].id, false)).id,
			);
			const output = outputOf(retry, CREATE_NODE).map((item) => item.json);
			const after = await held(logic);
			const names = namesOf(logic, CRASHED);
			figures(
				`Clean Database, then the retry of the crash: ${logic}`,
				{
					retry: retry.status,
					items: output.length,
					skipped: output.filter(isSkipped).length,
					failedByOutcome: outcomesOf(output),
					createdBeforeKill: byLogic(logic)(crash.atKill[logic]),
				},
				after,
			);
			expect(retry).toMatchObject({ mode: 'retry', status: 'success' });
			expect(output).toHaveLength(names.length);
			expect(output.filter(isSkipped).length).toBeGreaterThan(0);
			expect(twice(after.created).filter((name) => names.includes(name))).toEqual([]);
			for (const [index, item] of output.entries()) {
				const name = names[index];
				if (isSkipped(item))
					expect({ name, before: crash.atKill[logic].created.get(name) }).toEqual({
						name,
						before: 1,
					});
				else if (item.error === undefined) expect(item).toEqual(after.records.get(name));
			}
		},
	);
});
