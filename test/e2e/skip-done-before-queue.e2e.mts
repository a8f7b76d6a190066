// Skip Items Done Before across queue-mode workers (issue 36), in real n8n
// 2.x: main, two workers, Redis and PostgreSQL. The same webhook event is
// delivered many times at once; the deliveries run on both workers, and each
// sequence is created by one of them only: every other delivery skips it, or
// fails it as not done, saying another execution is sending it. The first
// test is the harness's part; the one marked #36 encodes the new behaviour.
// Figures: artifacts/e2e/re-runs-figures.json.
import { TEST_API_KEYS } from '../harness/keys.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_CURRENT } from './harness/n8n.mts';
import {
	KEYED,
	byName,
	createsWhatTheEventLists,
	expectEachOnce,
	figuresOf,
	names,
	postEvent,
	type ByName,
} from './harness/re-runs.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

const WEBHOOK = 'outreach-skip-done-before-queue';
const SUITE = 'skip-done-before-queue';
const DELIVERIES = 12;
const EVENT = names(5, 'queue-');

type Item = Record<string, unknown>;

describe(`n8n ${N8N_CURRENT} in queue mode: Skip Items Done Before across two workers`, () => {
	const sandbox = useSandbox(TEST_API_KEYS.skipDoneBeforeQueue);
	const n8n = useN8n(() => ({
		version: N8N_CURRENT,
		name: SUITE,
		run: 'queue',
		workers: 2,
		sandbox: sandbox(),
		workflows: [createsWhatTheEventLists(WEBHOOK, KEYED)],
		publish: [WEBHOOK],
		ready: [`/webhook/${WEBHOOK}`],
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(sandbox().apiKey);
	});
	let answers: Item[][] = [];
	let after: ByName;

	test(`the same event delivered ${DELIVERIES} times at once: every delivery is answered, and both workers run some`, async () => {
		await sandbox().reset();
		const delivered = await Promise.all(
			Array.from({ length: DELIVERIES }, () => postEvent(n8n, WEBHOOK, EVENT)),
		);
		after = await byName(sandbox());
		const ran = (await n8n.executions(WEBHOOK)).slice(0, DELIVERIES).map((run) => run.id);
		const byWorker = n8n.workers.map(
			(worker) =>
				ran.filter((id) => new RegExp(`Worker started execution ${id}\\b`).test(worker.log()))
					.length,
		);
		recordFigures(SUITE, N8N_CURRENT, `webhook call delivered ${DELIVERIES} times at once`, {
			...figuresOf(after),
			answers: delivered.map((answer) => answer.status),
			executionsByWorker: byWorker,
		});

		expect(delivered.map((answer) => answer.status)).toEqual(Array(DELIVERIES).fill(200));
		expect(byWorker.every((count) => count > 0)).toBe(true);
		expect(byWorker.reduce((sum, count) => sum + count, 0)).toBe(DELIVERIES);
		answers = delivered.map((answer) => answer.body as Item[]);
	});

	test('#36 each sequence is created once: one delivery has it, every other skipped it or failed it as not done', () => {
		expectEachOnce(after, EVENT);
		for (const [index, { name }] of EVENT.entries()) {
			const items = answers.map((answer) => answer[index]);
			const made = items.filter(
				(item) => item.skipped !== true && item.id === after.records.get(name)?.id,
			);
			expect({ name, made: made.length }).toEqual({ name, made: 1 });
			for (const item of items.filter((candidate) => !made.includes(candidate)))
				expect({
					name,
					skipped:
						item.skipped === true ||
						(item.message as { timesSent?: unknown } | undefined)?.timesSent === 0,
				}).toEqual({
					name,
					skipped: true,
				});
		}
	});
});
