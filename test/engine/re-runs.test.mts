// When n8n runs the node again, nothing the service confirmed is sent twice:
// Retry On Fail (n8n-core's WorkflowExecute re-runs the node in the same
// execution) and Executions › Retry (the failed run's saved data, run on in
// mode 'retry', as n8n's ExecutionService.retry does it). The record lives in
// the node's context, saved with the execution (run/outcome/record.ts).
import type { IDataObject, IRun, NodeExecutionHint } from 'n8n-workflow';

import { RECORD_KEY } from '../../nodes/OutreachSequences/run/outcome/record.ts';
import type { RecordedRequest } from '../harness/sandbox.mts';
import { useEnvironment } from '../harness/setup.mts';
import {
	OUTREACH,
	retryFixture,
	runFixture,
	type FixtureRun,
	type RunOptions,
} from '../harness/workflows.mts';

const env = useEnvironment();

const names = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ name: `S${index + 1}` }));
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };

function hintsOf(run: FixtureRun): NodeExecutionHint[] {
	const runs = run.run.data.resultData.runData[OUTREACH] ?? [];
	return (runs[runs.length - 1] as { hints?: NodeExecutionHint[] } | undefined)?.hints ?? [];
}

function recordOf(run: IRun): unknown {
	return run.data.executionData?.contextData[`node:${OUTREACH}`]?.[RECORD_KEY];
}

/** The name each create request carried. */
const nameOf = (request: RecordedRequest) => (JSON.parse(request.body) as { name: string }).name;

async function creates(): Promise<RecordedRequest[]> {
	return (await env.sandbox.requests()).filter((request) => request.url === '/v1/sequences');
}

/** Each output item is the sequence the sandbox holds under its id, and belongs to its input item. */
/** The sandbox answers the create of sequence `name` with `status` (as the fault's options say). */
async function failCreate(
	name: string,
	status: number,
	message: string,
	options: { times?: number; afterWrite?: boolean } = {},
): Promise<void> {
	await env.sandbox.addFault({
		method: 'POST',
		pathPrefix: '/v1/sequences',
		bodyContains: `"name":"${name}"`,
		status,
		body: { message },
		...options,
	});
}

async function expectOutputAsStored(run: FixtureRun, inputNames: string[]): Promise<void> {
	expect(run.all.map((item) => item.pairedItem)).toEqual(inputNames.map((_, item) => ({ item })));
	for (const [index, item] of run.all.entries()) {
		expect(item.json.name).toBe(inputNames[index]);
		expect(await env.sandbox.record('sequences', String(item.json.id))).toEqual(item.json);
	}
}

describe('Retry On Fail (On Error = Stop)', () => {
	test('a create that failed once before the service wrote it: the run succeeds, each sequence exists once, the output is the service’s answers', async () => {
		await failCreate('S7', 500, 'gateway', { times: 1 });
		const items = names(24);
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items,
			settings: RETRY_ON_FAIL,
		});
		expect(run.error).toBeUndefined();
		const summary = await env.sandbox.summary();
		expect(summary).toMatchObject({ sequencesCreated: 24, duplicateNames: 0 });
		const sent = await creates();
		// S7 went out twice (it failed, and n8n ran the node again); every other name once.
		expect(sent.filter((request) => nameOf(request) === 'S7')).toHaveLength(2);
		expect(sent).toHaveLength(25);
		await expectOutputAsStored(
			run,
			items.map((item) => item.name),
		);
		// What the service confirmed in the first try (before S7 went out again) was answered from the record in the second.
		const secondTry = sent.findIndex(
			(request, index) =>
				nameOf(request) === 'S7' && index > sent.findIndex((first) => nameOf(first) === 'S7'),
		);
		const confirmedBefore = sent
			.slice(0, secondTry)
			.filter((request) => request.status === 201).length;
		expect(hintsOf(run).find((hint) => hint.type === 'info')?.message).toBe(
			`n8n ran this node again (Retry On Fail, or Executions › Retry). ${confirmedBefore} items the service had already carried out were not sent again: their output is the answer the service gave then. 1 item that had failed was sent again.`,
		);
		// With Retry On Fail on, the try after a failed one keeps the record (n8n 1.85 would run the next try too).
		const record = recordOf(run.run) as {
			runs: Record<string, Record<string, { answer?: IDataObject }>>;
		};
		expect(
			Object.values(record.runs['0']).filter((entry) => entry.answer !== undefined),
		).toHaveLength(24);
	});

	test('a create answered 500 after the service wrote it is sent again, as the user asked n8n to: only that one is created twice', async () => {
		await failCreate('S3', 500, 'late', { times: 1, afterWrite: true });
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items: names(8),
			settings: RETRY_ON_FAIL,
		});
		expect(run.error).toBeUndefined();
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 9, duplicateNames: 1 });
		const sent = await creates();
		expect(sent.filter((request) => nameOf(request) === 'S3')).toHaveLength(2);
		expect(sent.filter((request) => nameOf(request) !== 'S3')).toHaveLength(7);
	});
});

test('Retry On Fail under Continue: n8n runs the node again when the first item failed, and the item that succeeded is not archived again', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'zz-404' }, { id: 'c-42' }],
		onError: 'continueRegularOutput',
		settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
	});
	expect(run.error).toBeUndefined();
	const urls = (await env.sandbox.requests()).map((request) => request.url);
	expect(urls.filter((url) => url === '/v1/contacts/c-42/archive')).toHaveLength(1);
	expect(urls.filter((url) => url === '/v1/contacts/zz-404/archive')).toHaveLength(3);
	expect(
		run.all.map((item) => [item.pairedItem, item.json.id ?? null, item.json.outcome ?? null]),
	).toEqual([
		[{ item: 0 }, null, 'notActed'],
		[{ item: 1 }, 'c-42', null],
	]);
	expect(run.all[1].json).toEqual(await env.sandbox.record('contacts', 'c-42'));
});

describe('On Error = Stop, then Executions › Retry', () => {
	const stopAt24: RunOptions = { items: names(40), parameters: {} };

	async function failAt24(): Promise<FixtureRun> {
		await failCreate('S24', 500, 'gateway', { times: 1 });
		return await runFixture(env.engine, env.sandbox, 'sequence-create-fields', stopAt24);
	}

	test('the error says how many sequences were created, names a few IDs, and says a retry will not create them again', async () => {
		const run = await failAt24();
		const created = (await creates()).filter((request) => request.status === 201).length;
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: created });
		const description = String((run.error as { description?: string }).description);
		expect(description).toMatch(
			new RegExp(
				`^${created} of 40 sequences were created before item 24 failed\\. The service's answers are kept with this execution: when n8n runs the node again \\(Executions › Retry, or Retry On Fail\\), those are not created again\\. IDs: ((seq-[\\w-]+, ){4}seq-[\\w-]+) and ${created - 5} more\\.`,
			),
		);
		const named = /IDs: (.*) and/.exec(description)?.[1].split(', ') ?? [];
		for (const id of named) expect(await env.sandbox.record('sequences', id)).toMatchObject({ id });
		// The record holds what the service confirmed, and no key.
		const record = recordOf(run.run) as {
			runs: Record<string, Record<string, { answer?: IDataObject }>>;
		};
		expect(
			Object.values(record.runs['0']).filter((entry) => entry.answer !== undefined),
		).toHaveLength(created);
		expect(JSON.stringify(record)).not.toContain(env.sandbox.apiKey);
	});

	test('a retry succeeds, and each sequence exists exactly once', async () => {
		const failed = await failAt24();
		const createdBefore = (await env.sandbox.summary()).sequencesCreated;
		const retried = await retryFixture(
			env.engine,
			env.sandbox,
			'sequence-create-fields',
			stopAt24,
			failed,
		);
		expect(retried.error).toBeUndefined();
		expect(retried.run.mode).toBe('retry');
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 40, duplicateNames: 0 });
		await expectOutputAsStored(
			retried,
			stopAt24.items.map((item) => String(item.name)),
		);
		expect(hintsOf(retried).find((hint) => hint.type === 'info')?.message).toMatch(
			new RegExp(
				`^n8n ran this node again \\(Retry On Fail, or Executions › Retry\\)\\. ${createdBefore} items the service had already carried out were not sent again: .* 1 item that had failed was sent again\\.$`,
			),
		);
		expect(recordOf(retried.run)).toBeUndefined();
	});

	test('a retry with a saved workflow that changed an item’s request sends that request; the unchanged ones are answered from the record', async () => {
		// The service refuses S3 (400) until the user fixes the name in the saved workflow.
		await failCreate('S3', 400, 'bad name');
		const items = names(5);
		const failed = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', { items });
		expect(failed.error).toBeDefined();
		const fixed = {
			items,
			parameters: { name: "={{ $json.name === 'S3' ? 'S3 (fixed)' : $json.name }}" },
		};
		const retried = await retryFixture(
			env.engine,
			env.sandbox,
			'sequence-create-fields',
			fixed,
			failed,
		);
		expect(retried.error).toBeUndefined();
		// Each name went out once: S3 was refused, and its fixed request is a new one.
		expect((await creates()).map(nameOf).sort()).toEqual([
			'S1',
			'S2',
			'S3',
			'S3 (fixed)',
			'S4',
			'S5',
		]);
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 5, duplicateNames: 0 });
		await expectOutputAsStored(retried, ['S1', 'S2', 'S3 (fixed)', 'S4', 'S5']);
	});
});

test('with Retry On Fail on, a try after an earlier one keeps the record though it succeeded: n8n 1.85 runs every remaining try', async () => {
	await failCreate('S2', 400, 'no', { times: 1 });
	const failed = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
		items: names(3),
	});
	expect(failed.error).toBeDefined();
	const retried = await retryFixture(
		env.engine,
		env.sandbox,
		'sequence-create-fields',
		{ items: names(3), settings: RETRY_ON_FAIL },
		failed,
	);
	expect(retried.error).toBeUndefined();
	const record = recordOf(retried.run) as {
		runs: Record<string, Record<string, { answer?: IDataObject }>>;
	};
	expect(Object.values(record.runs['0']).map((entry) => entry.answer?.name)).toEqual([
		'S1',
		'S2',
		'S3',
	]);
	// Without Retry On Fail, the same successful retry drops it.
	await env.sandbox.reset();
	await failCreate('S2', 400, 'no', { times: 1 });
	const again = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
		items: names(3),
	});
	expect(
		recordOf(
			(
				await retryFixture(
					env.engine,
					env.sandbox,
					'sequence-create-fields',
					{ items: names(3) },
					again,
				)
			).run,
		),
	).toBeUndefined();
});

test('Get Use Case changes nothing: no record is kept, and a retry reads again', async () => {
	await env.sandbox.addFault({
		pathPrefix: '/v1/use_cases/uc-2',
		status: 404,
		body: { message: 'gone' },
		times: 1,
	});
	const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
		items: [{ id: 'uc-1' }, { id: 'uc-2' }],
	});
	expect(run.error).toBeDefined();
	expect(recordOf(run.run)).toBeUndefined();
	const retried = await retryFixture(
		env.engine,
		env.sandbox,
		'use-case-get',
		{ items: [{ id: 'uc-1' }, { id: 'uc-2' }] },
		run,
	);
	expect(retried.error).toBeUndefined();
	const urls = (await env.sandbox.requests()).map((request) => request.url);
	expect(urls.filter((url) => url === '/v1/use_cases/uc-1')).toHaveLength(2);
	expect(retried.all.map((item) => (item.json as IDataObject).id)).toEqual(['uc-1', 'uc-2']);
});
