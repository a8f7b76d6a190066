// A crash loses nothing the service confirmed: the memory is in n8n's store as
// the run goes. The crash is what it leaves behind (re-runs-harness.mts): n8n's
// database as it was at the kill, and the execution saved without the node's
// context. A retry, and a retry of that retry, then send nothing the crashed
// try may have done without the user's say, and what it confirmed never.
import type { INodeParameters } from 'n8n-workflow';

import { processedRows } from '../harness/processed-store.mts';
import { useEnvironment } from '../harness/setup.mts';
import { factsOf, type RunOptions } from '../harness/workflows.mts';
import {
	crashedWhileS10IsInFlight,
	each,
	failCreate,
	names,
	oneAtATime,
	runner,
	sayForAll,
	sentCounts,
	twelve,
} from './re-runs-harness.mts';

const env = useEnvironment();
const { run, retry } = runner(env);
const sent = async () => await sentCounts(env.sandbox);
const withSay = (base: RunOptions, say: Record<string, string>): RunOptions => ({
	...base,
	parameters: {
		requestOptions: {
			...(twelve.parameters?.requestOptions as INodeParameters),
			...say,
		},
	},
});
const confirmedNames = async () =>
	new Set((await env.sandbox.records('sequences')).map((record) => String(record.name)));

test('the retry of a crashed try sends nothing: what the service made is skipped (id null), the rest fails unsent', async () => {
	const crashed = await crashedWhileS10IsInFlight(env);
	const before = (await env.sandbox.requests()).length;
	const retried = await retry(twelve, crashed);
	expect(retried.run.mode).toBe('retry');
	expect((await env.sandbox.requests()).length).toBe(before);
	const made = await confirmedNames();
	// The first batch's confirmations went with the second batch's claims.
	expect(retried.all.slice(0, 4).every((item) => item.json.skipped === true)).toBe(true);
	retried.all.forEach((item, index) => {
		const name = `S${index + 1}`;
		if (item.json.skipped === true) {
			expect(item.json).toEqual({ skipped: true, id: null, reason: expect.any(String) });
			expect(made.has(name)).toBe(true);
		} else expect(factsOf(item)).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });
	});
	// S10 was in flight, and the service refused it: it is not output as done.
	expect(made.has('S10')).toBe(false);
	expect(retried.all[9].json.skipped).toBeUndefined();
});

describe('the crash, then Executions › Retry with Stop, which stops on an unknown item; then a retry of that retry', () => {
	const stop: RunOptions = { ...twelve, onError: 'stopWorkflow' };

	test.each([
		['Count as Done for every item: nothing goes again', 'countAsDone'],
		['Send Again for every item: what the crashed try confirmed never goes again', 'sendAgain'],
		['no say: it stops again, sending nothing', undefined],
	])('%s', async (_, say) => {
		const crashed = await crashedWhileS10IsInFlight(env);
		const stopped = await retry(stop, crashed);
		expect(stopped.error).toBeDefined();
		expect(await sent()).toEqual(each(12));
		const again = await retry(say ? withSay(stop, sayForAll(12, say)) : stop, stopped);
		const counts = await sent();
		if (say === undefined) {
			expect(again.error).toBeDefined();
			expect(counts).toEqual(each(12));
			return;
		}
		expect(again.error).toBeUndefined();
		// The first group's confirmations were written before the kill; S10 was refused, so Send Again sends it.
		for (const name of ['S1', 'S2', 'S3', 'S4']) expect(counts[name]).toBe(1);
		expect(counts.S10).toBe(say === 'sendAgain' ? 2 : 1);
		// Each item output as done is exactly one not sent again.
		expect(again.all.map((item) => item.json.skipped === true)).toEqual(
			names(12).map(({ name }) => counts[name] === 1),
		);
	});
});

test('every item waits until its claim is written, and under Stop nothing goes out after the failed one', async () => {
	const rows = await processedRows();
	// A slow database: each claim takes 200 ms to land.
	rows.latencyMs = 200;
	await failCreate(env.sandbox, 'S2', 500, { afterWrite: true, times: 1 });
	try {
		const result = await run({
			items: names(6),
			onError: 'stopWorkflow',
			parameters: { requestOptions: oneAtATime },
		});
		expect(result.error).toMatchObject({ context: { itemIndex: 1 } });
	} finally {
		rows.latencyMs = 0;
	}
	expect(Object.keys(await sent())).toEqual(['S1', 'S2']);
});
