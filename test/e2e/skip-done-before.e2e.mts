// A new execution can be told what the node already created (issue 36):
// Request Options › Skip Items Done Before, keyed by each item's name, in
// real n8n, On Error = Continue. The same webhook call twice,
// one after the other and at the same moment, and Execute workflow twice
// (`POST /rest/workflows/<id>/run`, as the editor calls it), with a create
// that fails before it is written in the first run: it goes out in the
// second, and every other item is skipped there, visibly. Each sequence
// exists exactly once. At volume (issue 43): 50,000 archives keyed by the
// contact's ID, then the same call again:
// the second execution skips every one and sends nothing. Tests marked #36 and #43 encode the new behaviour;
// the others are the harness's part. Figures: artifacts/e2e/re-runs-figures.json.
import { TEST_API_KEYS } from '../harness/keys.mts';
import { lastOutput, runManually } from './harness/editor-rest.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_NODE_LINES } from './harness/n8n.mts';
import {
	CREATE_NODE,
	KEYED,
	byName,
	createsTheseNames,
	createsWhatTheEventLists,
	refusedOnce,
	expectEachOnce,
	figuresOf,
	names,
	postEvent,
	type ByName,
} from './harness/re-runs.mts';
import { useN8n, useSandbox, type Execution } from './harness/stage.mts';
import { archiveCount, archivesKeyed } from './harness/keyed-volume.mts';

const WEBHOOK = 'outreach-skip-done-before';
const MANUAL = 'outreach-skip-done-before-manual';
const SUITE = 'skip-done-before';
const MANUAL_NAMES = names(5, 'manual-');
const VOLUME = 'outreach-skip-done-before-volume';
/** As many items as one window of the node's memory holds (issue 43). */
const VOLUME_ITEMS = 50_000;

type Item = Record<string, unknown>;

/** The second run: the failed create is the sequence the service now holds; every other item is skipped under its key. */
function expectSkippedBut(
	output: Item[],
	after: ByName,
	list: Array<{ name: string }>,
	sent: string,
) {
	expect(output).toHaveLength(list.length);
	for (const [index, { name }] of list.entries()) {
		if (name === sent) expect(output[index]).toEqual(after.records.get(name));
		else {
			expect(output[index]).toMatchObject({ skipped: true, reason: expect.any(String) });
			// The ID where this n8n process made it; null where another did.
			expect([null, after.records.get(name)?.id]).toContain(output[index].id);
		}
	}
}

describe.each(N8N_NODE_LINES)('n8n %s: Skip Items Done Before', (version) => {
	const sandbox = useSandbox(TEST_API_KEYS.skipDoneBefore, [
		'--bulk-contacts',
		String(VOLUME_ITEMS),
	]);
	const n8n = useN8n(() => ({
		version,
		name: `${SUITE}-${version}`,
		run: 'server',
		sandbox: sandbox(),
		workflows: [
			createsWhatTheEventLists(WEBHOOK, KEYED),
			createsTheseNames(MANUAL, MANUAL_NAMES, KEYED),
			archivesKeyed(VOLUME),
		],
		publish: [WEBHOOK, VOLUME],
		ready: [`/webhook/${WEBHOOK}`],
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(sandbox().apiKey);
	});
	let runs: Execution[] = [];

	test('#36 the same webhook call twice, one after the other: the create the service refused goes out in the second, the rest are skipped', async () => {
		const event = names(5, 'after-');
		await sandbox().reset();
		await sandbox().addFault(refusedOnce('after-3'));
		const first = await postEvent(n8n, WEBHOOK, event);
		const second = await postEvent(n8n, WEBHOOK, event);
		const after = await byName(sandbox());
		recordFigures(SUITE, version, 'webhook call delivered twice, one after the other', {
			...figuresOf(after),
			answers: [first.status, second.status],
		});

		expect([first.status, second.status]).toEqual([200, 200]);
		expectEachOnce(after, event);
		expect((first.body as Item[])[2]).toMatchObject({ error: expect.any(String) });
		expectSkippedBut(second.body as Item[], after, event, 'after-3');
	});

	test('#36 the same webhook call twice at the same moment: each name is sent by one of them, and the other skips it or says another execution is sending it', async () => {
		const event = names(5, 'both-');
		await sandbox().reset();
		const answers = await Promise.all([
			postEvent(n8n, WEBHOOK, event),
			postEvent(n8n, WEBHOOK, event),
		]);
		const after = await byName(sandbox());
		recordFigures(SUITE, version, 'webhook call delivered twice at the same moment', {
			...figuresOf(after),
			answers: answers.map((answer) => answer.status),
		});

		expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
		expectEachOnce(after, event);
		const [one, other] = answers.map((answer) => answer.body as Item[]);
		for (const [index, { name }] of event.entries()) {
			const pair = [one[index], other[index]];
			const made = pair.filter(
				(item) => item.skipped !== true && item.id === after.records.get(name)?.id,
			);
			expect({ name, made: made.length }).toEqual({ name, made: 1 });
			const notMade = pair.find((item) => !made.includes(item));
			expect(
				notMade?.skipped === true ||
					(notMade?.message as { timesSent?: unknown } | undefined)?.timesSent === 0,
			).toBe(true);
		}
	});

	test('Execute workflow (POST /rest/workflows/<id>/run), twice: each run is a manual execution of the saved workflow, with a create the service refuses in the first', async () => {
		await sandbox().reset();
		await sandbox().addFault(refusedOnce('manual-3'));
		runs = [await runManually(n8n, MANUAL)];
		runs.push(await runManually(n8n, MANUAL));
		const after = await byName(sandbox());
		recordFigures(SUITE, version, 'Execute workflow twice', {
			...figuresOf(after),
			executions: runs.map((run) => `${run.mode} ${run.status}`),
		});

		expect(runs.map((run) => run.mode)).toEqual(['manual', 'manual']);
		const first = lastOutput(runs[0], CREATE_NODE).map((item) => item.json);
		expect(first).toHaveLength(MANUAL_NAMES.length);
		expect(first[2]).toMatchObject({ error: expect.any(String), message: { timesSent: 1 } });
		expect(after.sent.get('manual-3')).toBeGreaterThanOrEqual(1);
	});

	test('#36 Execute workflow twice: the second run sends only the create the service refused; the others are skipped, in its output', async () => {
		const after = await byName(sandbox());
		expectEachOnce(after, MANUAL_NAMES);
		const second = lastOutput(runs[1], CREATE_NODE).map((item) => item.json);
		expectSkippedBut(second, after, MANUAL_NAMES, 'manual-3');
		expect(runs[1].status).toBe('success');
	});

	test(`#43 ${VOLUME_ITEMS} keyed archives, then the same call again: the second execution skips every one and sends nothing`, async () => {
		const [path, items] = [VOLUME, VOLUME_ITEMS];
		await sandbox().reset();
		const first = await archiveCount(n8n, path, items);
		const sentFirst = (await sandbox().summary()).requests;
		await sandbox().reset();
		const second = await archiveCount(n8n, path, items);
		const sentSecond = (await sandbox().summary()).requests;
		recordFigures(SUITE, version, `${items} keyed archives, twice`, {
			first,
			sentFirst,
			second,
			sentSecond,
		});
		expect({ first, sentFirst }).toEqual({
			first: { items, skipped: 0, failed: 0 },
			sentFirst: items,
		});
		expect({ second, sentSecond }).toEqual({
			second: { items, skipped: items, failed: 0 },
			sentSecond: 0,
		});
	}, 1_200_000);
});
