// The crash of the engine tests (crash.test.mts, crash-chain.test.mts): what
// n8n's database held at the moment of a kill (the store's rows, copied then),
// and the execution saved without the node's context.
import type { Environment } from '../harness/setup.mts';
import { processedRows } from '../harness/processed-store.mts';
import { OUTREACH, runFixture, type RunOptions } from '../harness/workflows.mts';
import { failCreate, names } from './re-runs-harness.mts';

export const FIXTURE = 'sequence-create-fields';
export const twelve: RunOptions = {
	items: names(12),
	onError: 'continueRegularOutput',
	// In batches of four (an interval makes them batches): the journal marks a batch before its first goes out.
	parameters: { requestOptions: { batching: { batch: { batchSize: 4, batchInterval: 1 } } } },
};

/** Waits until the sandbox has received the create of `name`. */
async function received(env: Environment, name: string): Promise<void> {
	for (let tries = 0; tries < 200; tries++) {
		const requests = await env.sandbox.requests();
		if (requests.some((request) => request.body.includes(`"name":"${name}"`))) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	throw new Error(`${name} was never sent`);
}

/** A run "killed" while S10 is in flight: what the database held then, and the execution without the node's context. */
export async function crashedWhileS10IsInFlight(env: Environment) {
	const rows = await processedRows();
	rows.rows.clear();
	await failCreate(env.sandbox, 'S10', 400, 'late', { delayMs: 800, times: 1 });
	const running = runFixture(env.engine, env.sandbox, FIXTURE, {
		...twelve,
		onError: 'stopWorkflow',
	});
	await received(env, 'S10');
	const atTheKill = rows.snapshot();
	const run = await running;
	expect(run.error).toBeDefined();
	rows.restore(atTheKill);
	delete run.run.data.executionData?.contextData[`node:${OUTREACH}`];
	return run;
}
