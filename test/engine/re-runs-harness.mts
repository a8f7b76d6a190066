// What the memory and re-run suites share: creates named S1…Sn, the sandbox's
// faults on a name, how often it got each, the record and hints of a run, and
// a crash: n8n's database as it was at a kill, and the execution without the
// node's context.
import type { IRun, NodeExecutionHint } from 'n8n-workflow';

import { RECORD_KEY } from '../../nodes/OutreachSequences/run/memory/record.ts';
import { processedRows } from '../harness/processed-store.mts';
import type { Fault, SandboxProcess } from '../harness/sandbox.mts';
import { RELEASE } from '../harness/sandbox.mts';
import { forgetKnown, type Environment } from '../harness/setup.mts';
import { OUTREACH, retryFixture, runFixture } from '../harness/workflows.mts';
import type { FixtureRun, RunOptions } from '../harness/workflows.mts';

const FIXTURE = 'sequence-create-fields';
export const names = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ name: `S${index + 1}` }));
export const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };
export const oneAtATime = { batching: { batch: { batchSize: 1, batchInterval: 0 } } };
/** Request Options › Unconfirmed Earlier Try as an expression: each item by its name. */
export const decide = (byName: Record<string, string>) => ({
	unconfirmedEarlierTry: `={{ (${JSON.stringify(byName)})[$json.name] ?? 'fail' }}`,
});
export const sayForAll = (count: number, say: string) =>
	decide(Object.fromEntries(names(count).map(({ name }) => [name, say])));

/** Runs and Executions › Retry of the create fixture (or another), in `env`. */
export const runner = (env: Environment) => ({
	run: (options: RunOptions, fixture = FIXTURE) =>
		runFixture(env.engine, env.sandbox, fixture, options),
	retry: (options: RunOptions, failed: FixtureRun, fixture = FIXTURE) =>
		retryFixture(env.engine, env.sandbox, fixture, options, failed),
});

export function hintsOf(run: FixtureRun): NodeExecutionHint[] {
	const runs = run.run.data.resultData.runData[OUTREACH] ?? [];
	return (runs[runs.length - 1] as { hints?: NodeExecutionHint[] } | undefined)?.hints ?? [];
}

export function recordOf(run: IRun): unknown {
	return run.data.executionData?.contextData[`node:${OUTREACH}`]?.[RECORD_KEY];
}

/** Each output item's `skipped`, or its name where it was created. */
export const skipped = (run: FixtureRun) =>
	run.all.map((item) => item.json.skipped ?? item.json.name);

/** How often the sandbox received a create of each name. */
export async function sentCounts(sandbox: SandboxProcess): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const request of await sandbox.requests())
		if (request.url === '/v1/sequences') {
			const { name } = JSON.parse(request.body) as { name: string };
			counts[name] = (counts[name] ?? 0) + 1;
		}
	return counts;
}

/** `count` creates S1…, each sent `times` (or as `except` says). */
export const each = (count: number, times = 1, except: Record<string, number> = {}) => ({
	...Object.fromEntries(names(count).map(({ name }) => [name, times])),
	...except,
});

/** The sandbox answers the create of sequence `name` with `status` (as the fault's options say). */
export async function failCreate(
	sandbox: SandboxProcess,
	name: string,
	status: number,
	options: Pick<Fault, 'times' | 'afterWrite' | 'holdUntil' | 'headers'> = {},
): Promise<void> {
	await sandbox.addFault({
		method: 'POST',
		pathPrefix: '/v1/sequences',
		bodyContains: `"name":"${name}"`,
		status,
		body: { message: 'no' },
		...options,
	});
}

/** Each output item is the sequence the sandbox holds under its id, and belongs to its input item. */
export async function expectOutputAsStored(sandbox: SandboxProcess, run: FixtureRun, of: string[]) {
	expect(run.all.map((item) => item.pairedItem)).toEqual(of.map((_, item) => ({ item })));
	for (const [index, item] of run.all.entries()) {
		expect(item.json.name).toBe(of[index]);
		expect(await sandbox.record('sequences', String(item.json.id))).toEqual(item.json);
	}
}

// In batches of four (an interval makes them batches).
export const twelve: RunOptions = {
	items: names(12),
	onError: 'continueRegularOutput',
	parameters: { requestOptions: { batching: { batch: { batchSize: 4, batchInterval: 1 } } } },
};

/** A run "killed" while S10 (which the service refuses) and S12 are in flight: what the database held then, and the execution without the node's context. */
export async function crashedWhileS10IsInFlight(env: Environment) {
	const rows = await processedRows();
	// S10 and S12 are held at the service until the kill is over: all twelve were sent before S10's answer.
	await failCreate(env.sandbox, 'S10', 400, { holdUntil: RELEASE, times: 1 });
	await env.sandbox.addFault({ bodyContains: '"name":"S12"', holdUntil: RELEASE, times: 1 });
	const running = runner(env).run({ ...twelve, onError: 'stopWorkflow' });
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
