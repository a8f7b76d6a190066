// The crash of the engine tests (crash.test.mts, crash-chain.test.mts): what
// n8n's database held at the moment of a kill (the store's rows, copied while
// the sandbox holds the last group's requests), and the execution saved
// without the node's context.
import { RELEASE } from '../harness/sandbox.mts';
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

/** A run "killed" while the last group (S9 to S12, S10 refused) is in flight: what the database held then, and the execution without the node's context. */
export async function crashedWhileS10IsInFlight(env: Environment) {
	const rows = await processedRows();
	rows.rows.clear();
	// The last group is held at the service until the kill is over: in flight then, however slow the machine.
	const last = ['S9', 'S10', 'S11', 'S12'];
	for (const name of last)
		if (name === 'S10')
			await failCreate(env.sandbox, name, 400, 'late', { holdUntil: RELEASE, times: 1 });
		else
			await env.sandbox.addFault({
				bodyContains: `"name":"${name}"`,
				holdUntil: RELEASE,
				times: 1,
			});
	const running = runFixture(env.engine, env.sandbox, FIXTURE, {
		...twelve,
		onError: 'stopWorkflow',
	});
	await env.sandbox.held(last.length);
	const atTheKill = rows.snapshot();
	await env.sandbox.release();
	const run = await running;
	expect(run.error).toBeDefined();
	rows.restore(atTheKill);
	delete run.run.data.executionData?.contextData[`node:${OUTREACH}`];
	return run;
}
