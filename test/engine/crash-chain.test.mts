// The way on after a crash, as a chain (issue 43): the crashed execution is
// retried with On Error = Stop; that retry stops on an item whose outcome is
// unknown; the user says what to do in Unconfirmed Earlier Try and retries the
// failed retry. What the crashed try knew lasts along the chain: what it
// confirmed is never sent again, whatever the user says, and items the stopped
// retry never reached are not sent again on their own either.
import { useEnvironment } from '../harness/setup.mts';
import { retryFixture, type RunOptions } from '../harness/workflows.mts';
import { crashedWhileS10IsInFlight, FIXTURE, twelve } from './crash-harness.mts';
import { decide, names, sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
const stop: RunOptions = { ...twelve, onError: 'stopWorkflow' };
const sayForAll = (say: string) => ({
	...stop,
	parameters: {
		...stop.parameters,
		...decide(Object.fromEntries(names(12).map(({ name }) => [name, say]))),
	},
});

/** The crash, then Executions › Retry with Stop: it stops on an item whose outcome is unknown. */
async function crashThenRetry() {
	const crashed = await crashedWhileS10IsInFlight(env);
	const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, stop, crashed);
	expect(retried.error).toBeDefined();
	// The crashed try sent all twelve (its last group together); the service refused S10.
	expect(await sentCounts(env.sandbox)).toEqual(
		Object.fromEntries(names(12).map(({ name }) => [name, 1])),
	);
	return retried;
}

test('Count as Done, then a retry of the failed retry: nothing is created twice, nothing the crash knew is sent', async () => {
	const retried = await crashThenRetry();
	const again = await retryFixture(
		env.engine,
		env.sandbox,
		FIXTURE,
		sayForAll('countAsDone'),
		retried,
	);
	expect(again.error).toBeUndefined();
	// Every item the crashed try sent is confirmed or counted as done: none goes out again.
	const counts = await sentCounts(env.sandbox);
	for (const { name } of names(12)) expect(counts[name]).toBe(1);
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 11, duplicateNames: 0 });
	expect(again.all.filter((item) => item.json.skipped === true)).toHaveLength(12);
});

test('Send Again, then a retry of the failed retry: what the crashed try confirmed is never sent again', async () => {
	const retried = await crashThenRetry();
	const again = await retryFixture(
		env.engine,
		env.sandbox,
		FIXTURE,
		sayForAll('sendAgain'),
		retried,
	);
	expect(again.error).toBeUndefined();
	const counts = await sentCounts(env.sandbox);
	// The first group's confirmations were written before the kill: confirmed is final.
	for (const name of ['S1', 'S2', 'S3', 'S4']) expect(counts[name]).toBe(1);
	// S10 was refused before the kill and is sent again, as the user said.
	expect(counts.S10).toBe(2);
	for (const { name } of names(12)) expect(counts[name]).toBeLessThanOrEqual(2);
	const skipped = again.all.filter((item) => item.json.skipped === true);
	// Each item the crashed try confirmed is output as done, and those are exactly the ones not sent again.
	again.all.forEach((item, index) =>
		expect({ index, skipped: item.json.skipped === true }).toEqual({
			index,
			skipped: counts[`S${index + 1}`] === 1,
		}),
	);
	const sentTwice = names(12).filter(({ name }) => counts[name] === 2).length;
	expect(skipped.length + sentTwice).toBe(12);
});

test('a retry of the retry with the original workflow (no say): it stops again on the same unknown items, sending nothing', async () => {
	const retried = await crashThenRetry();
	const before = await sentCounts(env.sandbox);
	const again = await retryFixture(env.engine, env.sandbox, FIXTURE, stop, retried);
	expect(again.error).toBeDefined();
	expect(await sentCounts(env.sandbox)).toEqual(before);
});
