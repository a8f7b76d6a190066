// The way on after a crash (issue 43, table 1), in real n8n (`n8n start`,
// 2.x): a webhook starts 200 creates under a 10/s limit, default
// settings (On Error = Stop); after about 8 s n8n's process group gets
// SIGKILL and n8n starts again; Executions › Retry of the crashed execution
// stops on the first item the crashed try sent without an answer; the user
// sets Unconfirmed Earlier Try, saves (`PATCH /rest/workflows/<id>`), and
// retries the failed retry with the currently saved workflow, once more if
// that fails. Two workflows, each with a sandbox of its own at 10/s, run at
// once, so that one kill serves both says: Count as Done and Send Again.
// Before the change, 69 of the 70 created before the kill were created
// twice with Count as Done, and 72 of 72 with Send Again. The untagged test
// is the harness's part; those marked #43 encode the behaviour. Figures:
// artifacts/e2e/re-runs-figures.json.
import { TEST_API_KEYS } from '../harness/keys.mts';
import { isSkipped, outcomesOf, total } from './harness/crash.mts';
import {
	ITEMS,
	KILL_AFTER_MS,
	RATE,
	crashChains,
	lastItems,
	type Chain,
	type Say,
} from './harness/crash-chain.mts';
import { outreachApiCredential } from './harness/credentials.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_CURRENT } from './harness/n8n.mts';
import { createsWhatTheEventLists, figuresOf, twice } from './harness/re-runs.mts';
import { useN8n, useSandbox } from './harness/stage.mts';
import { outreachCredential } from './harness/workflows.mts';

const SUITE = 'crash-chain';
const WORKFLOWS: Record<Say, string> = {
	countAsDone: 'outreach-crash-chain-done',
	sendAgain: 'outreach-crash-chain-again',
};
const PREFIX: Record<Say, string> = { countAsDone: 'D', sendAgain: 'A' };
/** The Send Again side's credential: its own sandbox, so that each side has the 10/s to itself. */
const SECOND_SANDBOX = 'outreachSandboxTwo';

/** The side's workflow, default settings (On Error = Stop), answering the webhook at once. */
const workflowOf = (say: Say) =>
	createsWhatTheEventLists(
		WORKFLOWS[say],
		say === 'sendAgain' ? { settings: { credentials: outreachCredential(SECOND_SANDBOX) } } : {},
		'onReceived',
	);

/** The item the first retry stopped at (as n8n numbers items, from 0), and its name. */
function stoppedOn(chain: Chain) {
	const stoppedAt = chain.first.data.resultData.error?.context?.itemIndex;
	return { stoppedAt, name: stoppedAt === undefined ? undefined : chain.event[stoppedAt]?.name };
}

/** What the chain did, as the table counts it; recorded before anything is asserted. */
function figures(chain: Chain) {
	const { output, hints, last } = lastItems(chain);
	const createdBeforeKill = [...chain.atKill.created.keys()];
	return {
		createdBeforeKill: createdBeforeKill.length,
		sentBeforeKill: total(chain.atKill.sent),
		createdTwiceOfCreatedBeforeKill: createdBeforeKill.filter(
			(name) => (chain.after.created.get(name) ?? 0) > 1,
		).length,
		...figuresOf(chain.after),
		neverCreated: chain.event.filter(({ name }) => !chain.after.created.has(name)).length,
		firstRetry: { status: chain.first.status, ...stoppedOn(chain) },
		laterRetries: chain.later.map((retry) => retry.status),
		lastRetryItems: output.length,
		lastRetrySkipped: output.filter(isSkipped).length,
		lastRetryFailedByOutcome: outcomesOf(output),
		lastRetryHints: hints,
		lastRetryStatus: last.status,
		...chain.times,
	};
}

describe.each([N8N_CURRENT])('n8n %s: the way on after a crash', (version) => {
	const args = ['--rate-limit', String(RATE)];
	const sandboxes = {
		countAsDone: useSandbox(TEST_API_KEYS.crashChain, args),
		sendAgain: useSandbox(TEST_API_KEYS.crashChain, args),
	};
	const n8n = useN8n(() => ({
		version,
		name: `${SUITE}-${version}`,
		run: 'server',
		sandbox: sandboxes.countAsDone(),
		credentials: [
			outreachApiCredential(SECOND_SANDBOX, TEST_API_KEYS.crashChain, sandboxes.sendAgain().url),
		],
		workflows: [workflowOf('countAsDone'), workflowOf('sendAgain')],
		publish: Object.values(WORKFLOWS),
		ready: Object.values(WORKFLOWS).map((id) => `/webhook/${id}`),
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(TEST_API_KEYS.crashChain);
	});
	const chains: Partial<Record<Say, Chain>> = {};

	/**
	 * What holds with either say: what the first retry found done is created once, and so is
	 * what the last one output as done. Only on the Send Again side is every item output as
	 * done one the crash confirmed: Count as Done outputs the items the user counted so too.
	 */
	function confirmedOnce(chain: Chain, say: Say): void {
		const { stoppedAt = 0 } = stoppedOn(chain);
		// Every item before the one it stopped at, each created once.
		for (const { name } of chain.event.slice(0, stoppedAt))
			expect({ name, held: chain.after.created.get(name) }).toEqual({ name, held: 1 });
		// Its error names the first of them as created, by name: the crash kept no answer, so no ID
		// (its words: test/unit/stop-error.test.mts).
		const description = String(chain.first.data.resultData.error?.description);
		for (const { name } of chain.event.slice(0, Math.min(5, stoppedAt)))
			expect({ name, named: description.includes(`"${name}"`) }).toEqual({ name, named: true });
		const { output } = lastItems(chain);
		for (const [index, item] of output.entries())
			if (isSkipped(item)) {
				const name = chain.event[index].name;
				const times = chain.after.created.get(name) ?? 0;
				if (say === 'sendAgain') expect({ name, held: times }).toEqual({ name, held: 1 });
				else expect({ name, atMostOnce: times <= 1 }).toEqual({ name, atMostOnce: true });
			}
	}

	test('both workflows killed mid-run: the retry of each crash stops on an item the crash left unknown; each say saved; the retry of the retry runs', async () => {
		const says: Say[] = ['countAsDone', 'sendAgain'];
		const sides = says.map((say) => ({
			say,
			workflowId: WORKFLOWS[say],
			sandbox: sandboxes[say](),
			prefix: PREFIX[say],
		}));
		const ran = await crashChains(n8n, sides);
		for (const [index, say] of says.entries()) {
			chains[say] = ran[index];
			recordFigures(
				SUITE,
				version,
				`crash: ${ITEMS} creates at ${RATE}/s, SIGKILL after ${KILL_AFTER_MS / 1000} s, retry (Stop), ${say} saved, retry of the retry`,
				figures(ran[index]),
			);
		}
		for (const chain of ran) {
			expect(total(chain.atKill.created)).toBeGreaterThan(0);
			expect(total(chain.atKill.created)).toBeLessThan(ITEMS);
			expect(chain.first).toMatchObject({
				mode: 'retry',
				retryOf: chain.crashed.id,
				status: 'error',
			});
			// It stopped on an item the crashed try had sent, without an answer.
			const { name } = stoppedOn(chain);
			expect({ name, sentBeforeKill: chain.atKill.sent.has(String(name)) }).toEqual({
				name,
				sentBeforeKill: true,
			});
			expect(chain.later[0]).toMatchObject({ mode: 'retry', retryOf: chain.first.id });
		}
	});

	test('#43 Count as Done: no sequence is created twice, and the chain ends in a success', async () => {
		const chain = chains.countAsDone as Chain;
		const { last, output } = lastItems(chain);
		expect(twice(chain.after.created)).toEqual([]);
		confirmedOnce(chain, 'countAsDone');
		expect(last.status).toBe('success');
		expect(output).toHaveLength(ITEMS);
		// What was never created was counted as done on the user's say. Items marked ahead of their turn
		// are among them, sent or not: the crash could not tell them apart.
		chain.event.forEach(({ name }, index) => {
			if (!chain.after.created.has(name))
				expect({ name, output: output[index] }).toEqual({
					name,
					output: expect.objectContaining({ skipped: true }),
				});
		});
	});

	test('#43 Send Again: nothing the crash confirmed is created twice; only the unknown items are sent again', async () => {
		const chain = chains.sendAgain as Chain;
		const { last, output } = lastItems(chain);
		confirmedOnce(chain, 'sendAgain');
		expect(last.status).toBe('success');
		expect(output).toHaveLength(ITEMS);
		// Every sequence exists: the unknown ones were sent again, the never sent ones went out.
		for (const { name } of chain.event)
			expect({ name, held: chain.after.created.has(name) }).toEqual({ name, held: true });
		// Created twice: only items the user said to send again, each once more: ones the crashed try
		// had sent without an answer.
		const again = twice(chain.after.created);
		for (const name of again) {
			const index = chain.event.findIndex((item) => item.name === name);
			expect({ name, sentBeforeKill: chain.atKill.sent.has(name) }).toEqual({
				name,
				sentBeforeKill: true,
			});
			expect({ name, held: chain.after.created.get(name) }).toEqual({ name, held: 2 });
			expect({ name, output: output[index] }).toEqual({
				name,
				output: chain.after.records.get(name),
			});
		}
	});
});
