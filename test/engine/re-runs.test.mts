// When n8n runs the node again in the same execution, nothing the service
// carried out, or may have, is sent again without the user's say: Retry On
// Fail (n8n-core's WorkflowExecute re-runs the node) and Executions › Retry
// (the failed run's saved data, run on in mode 'retry', as n8n's
// ExecutionService.retry does it). The record lives in the node's context.
import { startOver, useEnvironment } from '../harness/setup.mts';
import { factsOf, retryFixture, runFixture, type RunOptions } from '../harness/workflows.mts';
import {
	RETRY_ON_FAIL,
	TEN_CREATES,
	creates,
	expectOutputAsStored,
	failCreate,
	hintsOf,
	names,
	recordOf,
	s4AndS7Fail,
	sentCounts,
} from './re-runs-harness.mts';

const env = useEnvironment();
const FIXTURE = 'sequence-create-fields';

describe(TEN_CREATES.title, () => {
	// The run stops at S4, before S7 is sent (one at a time: TEN_CREATES).
	const ten: RunOptions = TEN_CREATES.options;

	const faults = () => s4AndS7Fail(env.sandbox);

	test('Retry On Fail: neither is sent again, the execution stops on S4 with its earlier words', async () => {
		await faults();
		// Without Retry On Fail, the one try: the error n8n's next try starts from.
		const once = await runFixture(env.engine, env.sandbox, FIXTURE, ten);
		await startOver(env);
		await faults();
		const run = await runFixture(env.engine, env.sandbox, FIXTURE, {
			...ten,
			settings: RETRY_ON_FAIL,
		});
		expect((await sentCounts(env.sandbox)).S4).toBe(1);
		expect(await env.sandbox.summary()).toMatchObject({ duplicateNames: 0 });
		expect(once.error).toMatchObject({ context: { itemIndex: 3 }, httpCode: '500' });
		expect(run.error).toMatchObject({ context: { itemIndex: 3 } });
		expect(run.error?.message.startsWith(`${once.error?.message} `)).toBe(true);
		// The earlier failure's details are kept, after the way on.
		const description = String((run.error as { description?: string }).description);
		expect(description).toContain('{"message":"late"}');
	});

	test('then Executions › Retry with the user’s say for each item: S4 counted as done, S7 sent again; each sequence exists once', async () => {
		await faults();
		const failed = await runFixture(env.engine, env.sandbox, FIXTURE, ten);
		// The first error is S4's, item 3 as n8n counts them (its way on: test/unit/stop-error.test.mts).
		expect(failed.error).toMatchObject({ context: { itemIndex: 3 } });
		// Retrying as saved, unchanged: S4 fails again, unsent.
		const unchanged = await retryFixture(env.engine, env.sandbox, FIXTURE, ten, failed);
		expect(unchanged.error).toMatchObject({ context: { itemIndex: 3 } });
		expect((await sentCounts(env.sandbox)).S4).toBe(1);
		// The user checked: S4 exists, and says so. S7 goes out for the first time, and fails, unwritten.
		const decided = TEN_CREATES.saying({ S4: 'countAsDone', S7: 'sendAgain' });
		const first = await retryFixture(env.engine, env.sandbox, FIXTURE, decided, unchanged);
		expect(first.error).toMatchObject({ context: { itemIndex: 6 } });
		// It was not created: the same say sends it again.
		const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, decided, first);
		expect(retried.error).toBeUndefined();
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 10, duplicateNames: 0 });
		expect(await sentCounts(env.sandbox)).toMatchObject({ S4: 1, S7: 2, S1: 1, S10: 1 });
		// S4 counted as done: skipped, without a key or an answer of the service.
		expect(retried.all[3].json).toEqual({ skipped: true, id: null, reason: expect.any(String) });
		expect(retried.all[6].json.name).toBe('S7');
		expect(hintsOf(retried).map((hint) => hint.type)).toContain('info');
		expect(recordOf(retried.run)).toBeUndefined();
	});
});

test('Retry On Fail: a create the service refused (400) goes out again, and only that one; the output is a clean run’s', async () => {
	await failCreate(env.sandbox, 'S7', 400, 'not now', { times: 1 });
	const run = await runFixture(env.engine, env.sandbox, FIXTURE, {
		items: names(24),
		settings: RETRY_ON_FAIL,
	});
	expect(run.error).toBeUndefined();
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 24, duplicateNames: 0 });
	const sent = await sentCounts(env.sandbox);
	expect(sent.S7).toBe(2);
	expect(Object.values(sent).reduce((sum, count) => sum + count, 0)).toBe(25);
	await expectOutputAsStored(
		env.sandbox,
		run,
		names(24).map((item) => item.name),
	);
	expect(hintsOf(run).filter((hint) => hint.type === 'info')).toHaveLength(1);
});

test('Retry On Fail under Continue: n8n runs the node again when the first item failed, and the item that succeeded is not archived again', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'zz-404' }, { id: 'c-42' }],
		onError: 'continueRegularOutput',
		settings: RETRY_ON_FAIL,
	});
	expect(run.error).toBeUndefined();
	const urls = (await env.sandbox.requests()).map((request) => request.url);
	expect(urls.filter((url) => url === '/v1/contacts/c-42/archive')).toHaveLength(1);
	expect(urls.filter((url) => url === '/v1/contacts/zz-404/archive')).toHaveLength(3);
	expect(
		run.all.map((item) => [item.pairedItem, item.json.id ?? null, factsOf(item)?.outcome ?? null]),
	).toEqual([
		[{ item: 0 }, null, 'notActed'],
		[{ item: 1 }, 'c-42', null],
	]);
	expect(run.all[1].json).toEqual(await env.sandbox.record('contacts', 'c-42'));
});

describe('On Error = Stop, then Executions › Retry', () => {
	const forty: RunOptions = { items: names(40) };

	async function failAt24() {
		await failCreate(env.sandbox, 'S24', 400, 'bad', { times: 1 });
		return await runFixture(env.engine, env.sandbox, FIXTURE, forty);
	}

	test('the error names a few of the sequences created before it, each as the service holds it', async () => {
		const run = await failAt24();
		expect(run.error).toMatchObject({ context: { itemIndex: 23 } });
		const description = String((run.error as { description?: string }).description);
		// Its words: test/unit/stop-error.test.mts.
		const named = [...new Set(description.match(/\bseq-[\w-]+/g))];
		expect(named).toHaveLength(5);
		for (const id of named) expect(await env.sandbox.record('sequences', id)).toMatchObject({ id });
		expect(JSON.stringify(recordOf(run.run))).not.toContain(env.sandbox.apiKey);
	});

	test('a retry sends the refused one again and nothing else: each sequence exists exactly once', async () => {
		const failed = await failAt24();
		const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, forty, failed);
		expect(retried.error).toBeUndefined();
		expect(retried.run.mode).toBe('retry');
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 40, duplicateNames: 0 });
		expect((await sentCounts(env.sandbox)).S24).toBe(2);
		await expectOutputAsStored(
			env.sandbox,
			retried,
			forty.items.map((item) => String(item.name)),
		);
		expect(recordOf(retried.run)).toBeUndefined();
	});

	test('an edited retry: a Timezone added to the node changes every request, and what was created is kept, not created again', async () => {
		const failed = await failAt24();
		const createdBefore = (await env.sandbox.summary()).sequencesCreated;
		const edited = { ...forty, parameters: { additionalFields: { timezone: 'Europe/Paris' } } };
		const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, edited, failed);
		expect(retried.error).toBeUndefined();
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 40, duplicateNames: 0 });
		// The re-run hint names two of the kept ones: each created before, with its earlier timezone.
		const info = String(hintsOf(retried).find((hint) => hint.type === 'info')?.message);
		const kept = [...new Set(info.match(/\bseq-[\w-]+/g))];
		expect(kept).toHaveLength(2);
		for (const id of kept) {
			const held = await env.sandbox.record('sequences', id);
			expect(held?.timezone).not.toBe('Europe/Paris');
			expect(retried.all.find((item) => item.json.id === id)?.json).toEqual(held);
		}
		expect(createdBefore).toBeGreaterThan(2);
		// The kept items' output is the sequence that exists, with its earlier timezone; the others have the new one.
		await expectOutputAsStored(
			env.sandbox,
			retried,
			forty.items.map((item) => String(item.name)),
		);
		expect(retried.all[23].json.timezone).toBe('Europe/Paris');
	});

	test('a changed input item is another item: its request goes out', async () => {
		await failCreate(env.sandbox, 'S3', 400, 'bad name');
		const items = names(5);
		const failed = await runFixture(env.engine, env.sandbox, FIXTURE, { items });
		const fixed = {
			items,
			parameters: { name: "={{ $json.name === 'S3' ? 'S3 (fixed)' : $json.name }}" },
		};
		const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, fixed, failed);
		expect(retried.error).toBeUndefined();
		expect(
			(await creates(env.sandbox)).map((request) => JSON.parse(request.body).name).sort(),
		).toEqual(['S1', 'S2', 'S3', 'S3 (fixed)', 'S4', 'S5']);
		await expectOutputAsStored(env.sandbox, retried, ['S1', 'S2', 'S3 (fixed)', 'S4', 'S5']);
	});
});

test('Get Use Case changes nothing: no record is kept, and a retry reads again', async () => {
	await env.sandbox.addFault({
		pathPrefix: '/v1/use_cases/uc-2',
		status: 500,
		body: { message: 'x' },
		times: 1,
	});
	const items = [{ id: 'uc-1' }, { id: 'uc-2' }];
	const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
		items,
		parameters: { requestOptions: { rateLimitHandling: { settings: { enabled: false } } } },
	});
	expect(run.error).toBeDefined();
	expect(recordOf(run.run)).toBeUndefined();
	const retried = await retryFixture(env.engine, env.sandbox, 'use-case-get', { items }, run);
	expect(retried.error).toBeUndefined();
	const urls = (await env.sandbox.requests()).map((request) => request.url);
	expect(urls.filter((url) => url === '/v1/use_cases/uc-1')).toHaveLength(2);
	expect(urls.filter((url) => url === '/v1/use_cases/uc-2')).toHaveLength(2);
});
