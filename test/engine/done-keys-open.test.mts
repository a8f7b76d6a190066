// Skip Items Done Before where its keys can't be kept, in n8n's own engine:
// n8n's store failing as they are claimed sends nothing and says why; a run
// whose entries push earlier runs' out of the node's row says so in a hint.
// The words: test/unit/texts-re-run.test.mts.
// (A run of more than 50,000 keys: test/unit/done-keys-open.test.mts.)
import { createHash } from 'node:crypto';

import { ROW_MAX_ENTRIES } from '../../nodes/OutreachSequences/run/memory/processedStore.ts';
import { processedRows } from '../harness/processed-store.mts';
import { useEnvironment } from '../harness/setup.mts';
import { runFixture, type RunOptions } from '../harness/workflows.mts';
import { hintsOf, names } from './re-runs-harness.mts';

const env = useEnvironment();
const FIXTURE = 'sequence-create-fields';
const NODE_ROW = 'test-workflow|n:outreach';
const keyed = (count: number): RunOptions => ({
	items: names(count),
	onError: 'continueRegularOutput',
	parameters: {
		requestOptions: { skipDoneBefore: { keySettings: { key: '={{ $json.name }}' } } },
	},
});

beforeEach(async () => {
	const rows = await processedRows();
	rows.rows.clear();
	rows.latencyMs = 0;
});

test("the store fails while the keys are claimed: every item fails unsent, with the store's reason", async () => {
	const rows = await processedRows();
	rows.failNext = new Error('SQLITE_BUSY: database is locked');
	const run = await runFixture(env.engine, env.sandbox, FIXTURE, keyed(2));
	expect(await env.sandbox.requests()).toEqual([]);
	expect(run.all.map((item) => item.json)).toEqual(
		Array(2).fill({
			error: expect.stringContaining('(SQLITE_BUSY: database is locked)'),
			message: expect.objectContaining({ timesSent: 0, outcome: 'notActed' }),
		}),
	);
	expect(run.all[0].json.error).toBe(run.all[1].json.error);
});

test('a run whose entries push earlier ones out of the row says so in a hint; one that fits says nothing', async () => {
	const rows = await processedRows();
	const old = (index: number) => createHash('md5').update(`old-${index}`).digest('base64');
	rows.rows.set(
		NODE_ROW,
		Array.from({ length: ROW_MAX_ENTRIES - 10 }, (_, index) => old(index)),
	);
	const full = await runFixture(env.engine, env.sandbox, FIXTURE, keyed(4));
	// 4 keys: D_{b-1}, C_b and the tag now, D_b once confirmed: 13 entries into 10 free. Nothing else failed or warns.
	expect(full.all.every((item) => item.json.error === undefined)).toBe(true);
	expect(hintsOf(full).filter((hint) => hint.type === 'warning')).toHaveLength(1);
	rows.rows.clear();
	const roomy = await runFixture(env.engine, env.sandbox, FIXTURE, keyed(1));
	expect(hintsOf(roomy).filter((hint) => hint.type === 'warning')).toEqual([]);
}, 60_000);
