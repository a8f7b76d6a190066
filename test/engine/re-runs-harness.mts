// What the re-run suites share: creates named S1…Sn, the sandbox's faults on
// a name, the requests it got, and where the record and the hints are in a run.
import type { IDataObject, IRun, NodeExecutionHint } from 'n8n-workflow';

import { RECORD_KEY } from '../../nodes/OutreachSequences/run/memory/record.ts';
import type { Fault, RecordedRequest, SandboxProcess } from '../harness/sandbox.mts';
import { OUTREACH, type FixtureRun } from '../harness/workflows.mts';

export const names = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ name: `S${index + 1}` }));
export const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };
/** Request Options › Unconfirmed Earlier Try as an expression: each item by its name. */
export const decide = (byName: Record<string, string>) => ({
	requestOptions: {
		unconfirmedEarlierTry: `={{ (${JSON.stringify(byName)})[$json.name] ?? 'fail' }}`,
	},
});

export function hintsOf(run: FixtureRun): NodeExecutionHint[] {
	const runs = run.run.data.resultData.runData[OUTREACH] ?? [];
	return (runs[runs.length - 1] as { hints?: NodeExecutionHint[] } | undefined)?.hints ?? [];
}

export function recordOf(run: IRun): unknown {
	return run.data.executionData?.contextData[`node:${OUTREACH}`]?.[RECORD_KEY];
}

/** The name each create request carried. */
export const nameOf = (request: RecordedRequest) =>
	(JSON.parse(request.body) as { name: string }).name;

export async function creates(sandbox: SandboxProcess): Promise<RecordedRequest[]> {
	return (await sandbox.requests()).filter((request) => request.url === '/v1/sequences');
}

/** How often each name was sent. */
export async function sentCounts(sandbox: SandboxProcess): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const request of await creates(sandbox))
		counts[nameOf(request)] = (counts[nameOf(request)] ?? 0) + 1;
	return counts;
}

/** The sandbox answers the create of sequence `name` with `status` (as the fault's options say). */
export async function failCreate(
	sandbox: SandboxProcess,
	name: string,
	status: number,
	message: string,
	options: Pick<Fault, 'times' | 'afterWrite' | 'delayMs' | 'holdUntil'> = {},
): Promise<void> {
	await sandbox.addFault({
		method: 'POST',
		pathPrefix: '/v1/sequences',
		bodyContains: `"name":"${name}"`,
		status,
		body: { message },
		...options,
	});
}

const ONE_AT_A_TIME = { batching: { batch: { batchSize: 1, batchInterval: 0 } } };

/** Ten creates whose faults s4AndS7Fail sets, as their suites name them. */
export const TEN_CREATES = {
	title:
		'10 creates, On Error = Stop: S4 is written, then answered 500 on every send; S7 is answered 500 once, unwritten',
	fixture: 'sequence-create-fields',
	// One request in flight (Items per Batch 1): the run stops at S4 before S7 is sent, whatever pace other
	// tests in the worker taught the sandbox, as on a fresh n8n, where the node's first requests go one at a time.
	options: { items: names(10), parameters: { requestOptions: ONE_AT_A_TIME } },
	/** The options with the user's say in Unconfirmed Earlier Try, one at a time still. */
	saying: (byName: Record<string, string>) => ({
		items: names(10),
		parameters: { requestOptions: { ...ONE_AT_A_TIME, ...decide(byName).requestOptions } },
	}),
};

/** The ten creates' faults: S4 is written, then answered 500 on every send; S7 is answered 500 once, unwritten. */
export async function s4AndS7Fail(sandbox: SandboxProcess): Promise<void> {
	await failCreate(sandbox, 'S4', 500, 'late', { afterWrite: true });
	await failCreate(sandbox, 'S7', 500, 'gateway', { times: 1 });
}

/** Each output item is the sequence the sandbox holds under its id, and belongs to its input item. */
export async function expectOutputAsStored(
	sandbox: SandboxProcess,
	run: FixtureRun,
	inputNames: string[],
): Promise<void> {
	expect(run.all.map((item) => item.pairedItem)).toEqual(inputNames.map((_, item) => ({ item })));
	for (const [index, item] of run.all.entries()) {
		expect(item.json.name).toBe(inputNames[index]);
		expect(await sandbox.record('sequences', String(item.json.id))).toEqual(item.json);
	}
}

export type { IDataObject };
