// What a run says about itself in real n8n (`n8n execute`, 2.x and 1.x): the
// execution hints the node adds to the run data, beside its items, for a clean
// run, a push-back, failures and Retry On Fail, by their kind and whom they
// name (their words: test/unit/hints*.test.mts); and the shipped send-again
// example, which sends again only what the service did not act on.
import { DEFAULT_MAX_WAIT_SECONDS } from '../../nodes/OutreachSequences/helpers/defaults.ts';
import { TEST_API_KEYS } from '../harness/keys.mts';
import type { Fault } from '../harness/sandbox.mts';
import {
	EXPECTED,
	SEND_AGAIN,
	SEND_AGAIN_NAMES,
	executeWith,
	failuresWarning,
	hintOf,
	hintsOf,
	isError,
	sentOnce,
	type Hint,
} from './harness/cli.mts';
import {
	ARCHIVE_FAULTS,
	HINT_CONTACTS,
	HINTS_WORKFLOW,
	READ_ONLY_RETRY_ON_FAIL_WORKFLOW,
	RETRY_ON_FAIL_TRIES,
	RETRY_ON_FAIL_WORKFLOW,
	hintRunsSetup,
	sendAgainFacts,
	sendAgainFaults,
	sequenceCreates,
	statusesByContact,
} from './harness/hint-runs.mts';
import { outputsOf, N8N_NODE_LINES } from './harness/n8n.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

describe.each(N8N_NODE_LINES)('n8n %s: what a run says about itself', (version) => {
	const sandbox = useSandbox(TEST_API_KEYS.cli);
	// Execution hints: contact-archive under Continue (harness/hint-runs.mts).
	const n8n = useN8n(() => hintRunsSetup(version, sandbox()));
	// Each test starts with n8n's memory empty: these tests run the same items again on purpose.
	beforeEach(async () => await n8n.forgetMemory());
	const execute = (label: string, id: string, faults?: Fault[]) =>
		executeWith(n8n, sandbox(), label, id, faults);

	describe('execution hints in the run data', () => {
		test('a clean run has no hints', async () => {
			const { run, requests } = await execute('hints-clean', HINTS_WORKFLOW);
			expect(run.error).toBeUndefined();
			const [items] = outputsOf(run, 'Outreach Sequences');
			expect(items.map((item) => item.json.id)).toEqual(HINT_CONTACTS);
			expect(hintsOf(run, 'Outreach Sequences')).toEqual([]);
			expect(statusesByContact(requests)).toEqual(
				Object.fromEntries(HINT_CONTACTS.map((id) => [id, [200]])),
			);
		});

		test('the service pushes back once with Retry-After: one info hint, no warning, and every item archived', async () => {
			const limited = HINT_CONTACTS[1];
			const { run, requests } = await execute('hints-pushed-back', HINTS_WORKFLOW, [
				ARCHIVE_FAULTS.pushedBackOnce(limited),
			]);
			expect(run.error).toBeUndefined();
			const [items] = outputsOf(run, 'Outreach Sequences');
			expect(items.map((item) => item.json.id)).toEqual(HINT_CONTACTS);
			// The limited contact was sent again after its 429, once; the others once.
			expect(statusesByContact(requests)).toEqual(
				Object.fromEntries(HINT_CONTACTS.map((id) => [id, id === limited ? [429, 200] : [200]])),
			);

			expect(hintsOf(run, 'Outreach Sequences')).toEqual([hintOf('info')]);
		});

		test('Continue with a 404 and a 500: a warning names the failed items, the one to check first, and each failed item carries its facts', async () => {
			const [ok, rejected, mayHaveActed] = HINT_CONTACTS;
			const { run, requests } = await execute('hints-failures', HINTS_WORKFLOW, [
				ARCHIVE_FAULTS.notFound(rejected),
				ARCHIVE_FAULTS.serverError(mayHaveActed),
			]);
			expect(run.error).toBeUndefined();
			const [items] = outputsOf(run, 'Outreach Sequences');
			expect(items.map((item) => item.pairedItem)).toEqual(
				HINT_CONTACTS.map((_, item) => ({ item })),
			);
			expect(items[0].json.id).toBe(ok);
			expect(items[1].json).toEqual({
				error: expect.stringContaining(`"${rejected}"`),
				...sentOnce({ statusCode: 404, outcome: 'notActed' }),
			});
			expect(items[2].json).toEqual({
				error: expect.stringContaining(`"${mayHaveActed}"`),
				...sentOnce({ statusCode: 500, outcome: 'mayHaveActed' }),
			});
			// An archive is not sent again after a 500: the service may have carried it out.
			expect(statusesByContact(requests)).toEqual({
				[ok]: [200],
				[rejected]: [404],
				[mayHaveActed]: [500],
			});

			// One warning, which names the item to check first: the one the service may have archived.
			const hints = hintsOf(run, 'Outreach Sequences');
			expect(hints).toEqual([failuresWarning(mayHaveActed)]);
			expect(hints[0].message).not.toContain(`"${rejected}"`);
		});

		/** The Retry On Fail warning as the clean run below showed it, for the run after it. */
		let retryOnFail: Hint | undefined;

		test('Retry On Fail on an archive: the node warns of what n8n does when it runs the node again, though nothing failed', async () => {
			const { run } = await execute('hints-retry-on-fail', RETRY_ON_FAIL_WORKFLOW);
			expect(run.error).toBeUndefined();
			const [items] = outputsOf(run, 'Outreach Sequences');
			expect(items.map((item) => item.json.id)).toEqual(HINT_CONTACTS);
			const hints = hintsOf(run, 'Outreach Sequences');
			expect(hints).toEqual([hintOf('warning')]);
			retryOnFail = hints[0];
		});

		test('Retry On Fail with Continue, and the first item fails: n8n runs the node again, and only the failed item goes out again', async () => {
			const [first, ...others] = HINT_CONTACTS;
			const { run, requests } = await execute(
				'hints-retry-on-fail-first-fails',
				RETRY_ON_FAIL_WORKFLOW,
				[ARCHIVE_FAULTS.notFound(first)],
			);
			expect(run.error).toBeUndefined();
			// The workflow sets Max Tries to RETRY_ON_FAIL_TRIES: each try sends the failed item again; the others
			// were archived in the first try and come from the record (run/memory/record.ts) in the next.
			expect(statusesByContact(requests)).toEqual({
				[first]: Array(RETRY_ON_FAIL_TRIES).fill(404),
				...Object.fromEntries(others.map((id) => [id, [200]])),
			});
			const [items] = outputsOf(run, 'Outreach Sequences');
			expect(items[0].json).toEqual({
				error: expect.stringContaining(`"${first}"`),
				...sentOnce({ statusCode: 404, outcome: 'notActed' }),
			});
			expect(items.slice(1).map((item) => item.json.id)).toEqual(others);
			// The Retry On Fail warning (as the test before saw it, when it ran), the failed item's, the re-run's.
			expect(hintsOf(run, 'Outreach Sequences')).toEqual([
				retryOnFail ?? hintOf('warning'),
				failuresWarning(first),
				hintOf('info'),
			]);
		});

		test('Retry On Fail on Get Use Case, which changes nothing: no Retry On Fail warning, the failures still are', async () => {
			const expected = EXPECTED.find((entry) => entry.fixture === 'use-case-get');
			if (!expected) throw new Error('no use-case-get expectations');
			const failed = expected.items.filter(isError).length;
			const { run } = await execute(
				'hints-read-only-retry-on-fail',
				READ_ONLY_RETRY_ON_FAIL_WORKFLOW,
			);
			expect(run.error).toBeUndefined();
			// zz-404 is rejected, the blank ID never sent; no Retry On Fail warning.
			expect(failed).toBe(2);
			expect(hintsOf(run, 'Outreach Sequences')).toEqual([failuresWarning('zz-404')]);
		});
	});

	test('the send-again example: only what the service did not act on is sent again, once', async () => {
		expect(SEND_AGAIN_NAMES).toHaveLength(3);
		const [spring, summer, autumn] = SEND_AGAIN_NAMES;
		// Summer: a 429 asking for a longer wait than Max Wait allows, so the node gives up at once (the
		// service did not act). Autumn: a 500 (it may have acted). Spring: no fault.
		const retryAfter = DEFAULT_MAX_WAIT_SECONDS * 2;
		const { run, requests } = await execute(
			'send-again',
			SEND_AGAIN.id,
			sendAgainFaults(summer, autumn, retryAfter),
		);
		expect(run.error).toBeUndefined();

		// What the service received: each name's creates, with the status it answered.
		const { creates, sent } = sequenceCreates(requests);
		expect(creates).toHaveLength(4);
		expect(sent(spring)).toEqual([expect.any(Number)]);
		expect(sent(spring)[0]).toBeLessThan(300);
		expect(sent(summer)).toHaveLength(2);
		expect(sent(summer)[0]).toBe(429);
		expect(sent(summer)[1]).toBeLessThan(300);
		expect(sent(autumn)).toEqual([500]);
		const summary = await sandbox().summary();
		expect(summary.sequencesCreated).toBe(2);
		expect(summary.duplicateNames).toBe(0);

		// Create Sequence: Spring on the Success output, Summer and Autumn on the error output, each linked to its input.
		const [success, failure] = outputsOf(run, 'Create Sequence');
		expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(success[0].json).toMatchObject({ id: expect.stringMatching(/^seq-/), name: spring });
		expect(failure.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		// n8n merges the input's fields into an item on the error output.
		expect(failure.map((item) => item.json.name)).toEqual([summer, autumn]);
		const facts = sendAgainFacts(retryAfter);
		expect(failure.map((item) => item.json.error)).toEqual([
			expect.any(String),
			expect.any(String),
		]);
		expect(failure[0].json.message).toEqual(facts.summer);
		expect(failure[1].json.error).toContain(`"${autumn}"`);
		expect(failure[1].json.message).toEqual(facts.autumn);
		// The warning names the one the service may have created; Summer's 429 was a push-back, though
		// the node did not wait for it: an info hint.
		const createHints = hintsOf(run, 'Create Sequence');
		expect(createHints.filter((hint) => hint.type === 'warning')).toEqual([
			failuresWarning(autumn),
		]);
		expect(createHints.filter((hint) => hint.type !== 'warning')).toEqual([hintOf('info')]);

		// Only Summer passes the filter and is created again, after the wait.
		const [passed] = outputsOf(run, 'The service did not act');
		expect(passed.map((item) => item.json.name)).toEqual([summer]);
		expect(run.runData['Create Sequence again']).toHaveLength(1);
		const [again] = outputsOf(run, 'Create Sequence again');
		expect(again).toHaveLength(1);
		expect(again[0].pairedItem).toEqual({ item: 0 });
		expect(again[0].json).toMatchObject({ id: expect.stringMatching(/^seq-/), name: summer });
		expect(again[0].json).not.toHaveProperty('error');
		expect(await sandbox().record('sequences', String(again[0].json.id))).toMatchObject({
			name: summer,
		});
		expect(hintsOf(run, 'Create Sequence again')).toEqual([]);
	});
});
