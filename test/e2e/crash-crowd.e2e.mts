// Executions at once, killed together (issue 43, point 6), in real n8n
// (`n8n start`): four webhook calls to one workflow start together, each an
// execution of 400 creates on default settings (On Error = Stop), all four
// sharing one service that allows 100 requests per second. After about 8 s
// n8n's process group gets SIGKILL and n8n starts again; each crashed
// execution is retried (Executions › Retry, the original workflow); the user
// says Count as Done in Unconfirmed Earlier Try for the items whose outcome
// is unknown, saves, and retries each failed retry with the saved workflow.
// No sequence may be created twice: the four executions' journals share the
// node's row in n8n's store, written at the same moments, and each keeps its
// own marks. The untagged test is the harness's part; the one marked #43
// encodes the behaviour. Figures: artifacts/e2e/re-runs-figures.json.
import { TEST_API_KEYS } from '../harness/keys.mts';
import {
	crashAndRecover,
	executionIds,
	isSkipped,
	newExecutions,
	outcomesOf,
	outputOf,
	probeEnded,
	total,
} from './harness/crash.mts';
import { saveSay } from './harness/crash-chain.mts';
import { retryExecution, waitForEnd } from './harness/editor-rest.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_NODE_LINES } from './harness/n8n.mts';
import {
	CREATE_NODE,
	byName,
	createsWhatTheEventLists,
	figuresOf,
	names,
	postEvent,
	twice,
	type ByName,
} from './harness/re-runs.mts';
import { useN8n, useSandbox, type Execution } from './harness/stage.mts';

const SUITE = 'crash-crowd';
const WORKFLOW = 'outreach-crash-crowd';
const RATE = 100;
const ITEMS = 400;
const KILL_AFTER_MS = 8_000;
const PREFIXES = ['P', 'Q', 'R', 'S'];

interface Chain {
	prefix: string;
	crashed: Execution;
	first: Execution;
	later: Execution[];
}

/** Which event a chain ran: the first name a Split Out or a create put out in any of its executions. */
const prefixOf = (executions: Execution[]) =>
	executions
		.flatMap((execution) => [
			...outputOf(execution, 'Split Out'),
			...outputOf(execution, CREATE_NODE),
		])
		.map((item) => item.json.name)
		.find((name) => typeof name === 'string')
		?.charAt(0) ?? '';

describe.each(N8N_NODE_LINES)('n8n %s: four executions at once, killed together', (version) => {
	const sandbox = useSandbox(TEST_API_KEYS.crashCrowd, ['--rate-limit', String(RATE)]);
	const n8n = useN8n(() => ({
		version,
		name: `${SUITE}-${version}`,
		run: 'server',
		sandbox: sandbox(),
		workflows: [createsWhatTheEventLists(WORKFLOW, {}, 'onReceived')],
		publish: [WORKFLOW],
		ready: [`/webhook/${WORKFLOW}`],
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(TEST_API_KEYS.crashCrowd);
	});
	let atKill: ByName;
	let after: ByName;
	const chains: Chain[] = [];

	const retried = async (id: string, saved: boolean) =>
		await waitForEnd(n8n, (await retryExecution(n8n, WORKFLOW, id, saved)).id, 300_000);

	test('four calls at once, 400 creates each; SIGKILL mid-run; each crash retried, Count as Done saved, each failed retry retried with the saved workflow', async () => {
		await sandbox().reset();
		await probeEnded(n8n, WORKFLOW);
		const before = await executionIds(n8n, WORKFLOW);
		const started = Date.now();
		const answers = await Promise.all(
			PREFIXES.map((prefix) => postEvent(n8n, WORKFLOW, names(ITEMS, prefix))),
		);
		expect(answers.map((answer) => answer.status)).toEqual(PREFIXES.map(() => 200));
		const running = await newExecutions(n8n, WORKFLOW, before, PREFIXES.length);
		const recovered = await crashAndRecover(
			n8n,
			running,
			async () =>
				Date.now() - started >= KILL_AFTER_MS &&
				(await sandbox().summary()).sequencesCreated >= RATE,
			() => byName(sandbox()),
		);
		atKill = recovered.atKill;
		const firsts = await Promise.all(
			recovered.crashed.map(async (crashed) => ({
				crashed,
				first: await retried(crashed.id, false),
			})),
		);
		await saveSay(n8n, WORKFLOW, 'countAsDone');
		for (const { crashed, first } of firsts) {
			const later = first.status === 'error' ? [await retried(first.id, true)] : [];
			if (later[0]?.status === 'error') later.push(await retried(later[0].id, true));
			chains.push({ prefix: prefixOf([crashed, first, ...later]), crashed, first, later });
		}
		after = await byName(sandbox());
		const lastOf = (chain: Chain) => chain.later.at(-1) ?? chain.first;
		recordFigures(
			SUITE,
			version,
			`${PREFIXES.length} executions at once, ${ITEMS} creates each at ${RATE}/s shared, SIGKILL after ${KILL_AFTER_MS / 1000} s, retry (Stop), countAsDone saved, retry of the retry`,
			{
				createdBeforeKill: total(atKill.created),
				sentBeforeKill: total(atKill.sent),
				...figuresOf(after),
				firstRetries: chains.map((chain) => chain.first.status),
				lastRetries: chains.map((chain) => lastOf(chain).status),
				lastRetrySkipped: chains.map(
					(chain) =>
						outputOf(lastOf(chain), CREATE_NODE).filter((item) => isSkipped(item.json)).length,
				),
				lastRetryFailedByOutcome: chains.map((chain) =>
					outcomesOf(outputOf(lastOf(chain), CREATE_NODE).map((item) => item.json)),
				),
			},
		);
		expect(chains.map((chain) => chain.prefix).sort()).toEqual(PREFIXES);
		expect(total(atKill.created)).toBeGreaterThan(0);
		expect(total(atKill.created)).toBeLessThan(PREFIXES.length * ITEMS);
		for (const chain of chains)
			expect(chain.first).toMatchObject({ mode: 'retry', retryOf: chain.crashed.id });
		// 4,000 creates at 100/s, a restart and up to twelve retries: 76 s on 2 busy cores; room for a slower CI.
	}, 900_000);

	test('#43 no sequence is created twice, each chain ends in a success with one item per input, and what the crash confirmed is output as done', () => {
		expect(twice(after.created)).toEqual([]);
		for (const chain of chains) {
			const last = chain.later.at(-1) ?? chain.first;
			const output = outputOf(last, CREATE_NODE).map((item) => item.json);
			expect({ prefix: chain.prefix, status: last.status }).toEqual({
				prefix: chain.prefix,
				status: 'success',
			});
			expect(output).toHaveLength(ITEMS);
			// Each item: created, and output as its record; or output as done (done by the crash, or counted
			// as done on the user's say), and never created twice.
			for (const [index, item] of output.entries()) {
				const name = `${chain.prefix}${index + 1}`;
				if (isSkipped(item))
					expect({ name, heldAtMostOnce: (after.created.get(name) ?? 0) <= 1 }).toEqual({
						name,
						heldAtMostOnce: true,
					});
				else expect({ name, item }).toEqual({ name, item: after.records.get(name) });
			}
		}
		// What the crashed tries created is not created again.
		for (const name of atKill.created.keys())
			expect({ name, held: after.created.get(name) }).toEqual({ name, held: 1 });
	});
});
