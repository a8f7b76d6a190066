// The crash of the engine tests (crash.test.mts, crash-chain.test.mts): what
// n8n's database held at the moment of a kill (the store's rows, copied while
// the sandbox holds S10 and S12), and the execution saved without the node's
// context.
import { RELEASE } from '../harness/sandbox.mts';
import type { Environment } from '../harness/setup.mts';
import { forgetKnown } from '../harness/setup.mts';
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

/** A run "killed" while S10 (which the service refuses) and S12 are in flight: what the database held then, and the execution without the node's context. */
export async function crashedWhileS10IsInFlight(env: Environment) {
	const rows = await processedRows();
	rows.rows.clear();
	// S10 and S12 are held at the service until the kill is over: S10 is in flight then, and all
	// twelve were sent before S10's answer, however slow the machine and with two in flight or more.
	await failCreate(env.sandbox, 'S10', 400, 'late', { holdUntil: RELEASE, times: 1 });
	await env.sandbox.addFault({ bodyContains: '"name":"S12"', holdUntil: RELEASE, times: 1 });
	const running = runFixture(env.engine, env.sandbox, FIXTURE, {
		...twelve,
		onError: 'stopWorkflow',
	});
	await env.sandbox.held(2);
	const atTheKill = rows.snapshot();
	await env.sandbox.release();
	const run = await running;
	expect(run.error).toBeDefined();
	rows.restore(atTheKill);
	// n8n starts again: a new process knows nothing beside its database.
	forgetKnown();
	delete run.run.data.executionData?.contextData[`node:${OUTREACH}`];
	return run;
}
