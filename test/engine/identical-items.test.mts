// Identical items of one input are as many creates (issue 52's "the same item"):
// each is sent, whatever the schedule, and running the workflow again matches
// the nth of them with the nth created before. Eight requests in flight.
import { useEnvironment } from '../harness/setup.mts';
import { runFixture, type RunOptions } from '../harness/workflows.mts';
import { sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
const same = (count: number): RunOptions => ({
	items: Array.from({ length: count }, () => ({ name: 'Same' })),
	onError: 'continueRegularOutput',
	parameters: { requestOptions: { batching: { batch: { batchSize: 8, batchInterval: 0 } } } },
});
const run = (options: RunOptions) =>
	runFixture(env.engine, env.sandbox, 'sequence-create-fields', options);

test('40 identical creates in one execution are 40 creates; run again, none is sent, and a 41st goes out', async () => {
	const first = await run(same(40));
	expect(first.all.filter((item) => item.json.skipped === true)).toHaveLength(0);
	expect(await sentCounts(env.sandbox)).toEqual({ Same: 40 });

	const second = await run(same(40));
	expect(second.all.filter((item) => item.json.skipped === true)).toHaveLength(40);
	expect(new Set(second.all.map((item) => item.json.id)).size).toBe(40);
	expect(await sentCounts(env.sandbox)).toEqual({ Same: 40 });

	const third = await run(same(41));
	expect(third.all.map((item) => item.pairedItem)).toEqual(
		same(41).items!.map((_, item) => ({ item })),
	);
	expect(third.all.filter((item) => item.json.skipped === true)).toHaveLength(40);
	expect(await sentCounts(env.sandbox)).toEqual({ Same: 41 });
});
