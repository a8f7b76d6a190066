// When n8n runs the node again in the same execution, nothing the service
// carried out, or may have, is sent again without the user's say: Retry On
// Fail (n8n-core's WorkflowExecute re-runs the node) and Executions › Retry
// (the failed run's saved data, run on in mode 'retry', as n8n's
// ExecutionService.retry does it). The record lives in the node's context.
// The error's words: test/unit/stop-error.test.mts, item-error.test.mts.
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { useEnvironment } from '../harness/setup.mts';
import { factsOf, type FixtureRun, type RunOptions } from '../harness/workflows.mts';
import {
	RETRY_ON_FAIL,
	decide,
	each,
	expectOutputAsStored,
	failCreate,
	names,
	oneAtATime,
	recordOf,
	runner,
	sentCounts,
} from './re-runs-harness.mts';

const env = useEnvironment();
const { run, retry } = runner(env);
const sent = async () => await sentCounts(env.sandbox);
const created = async () => (await env.sandbox.summary()).sequencesCreated;
const stopsAt = (result: FixtureRun, itemIndex: number) =>
	expect(result.error).toMatchObject({ context: { itemIndex } });
const descriptionOf = (result: FixtureRun) =>
	String((result.error as { description?: string } | undefined)?.description);
const idsIn = (text: string) => [...new Set(text.match(/\bseq-[\w-]+/g))];
const unsent = (result: FixtureRun, index: number) =>
	expect(factsOf(result.all[index])).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });

// One request in flight: the run stops at S4 before S7 is sent, whatever pace the sandbox was taught.
const ten = (say: Record<string, string> = {}): RunOptions => ({
	items: names(10),
	parameters: { requestOptions: { ...oneAtATime, ...decide(say) } },
});

test.each([
	[500, {}],
	[503, {}], // without Retry-After
	[303, { Location: '/v1/sequences/elsewhere' }],
])(
	'Retry On Fail: a create answered %i after it was made fails mayHaveActed, and is not sent again',
	async (status, headers) => {
		// The first item: under Continue, n8n runs the node again when it failed.
		await failCreate(env.sandbox, 'S1', status, { times: 1, afterWrite: true, headers });
		const result = await run({
			items: names(3),
			onError: 'continueRegularOutput',
			settings: RETRY_ON_FAIL,
		});
		expect(await sent()).toEqual(each(3));
		// Failed again, unsent, in the next try, with the earlier answer's status.
		expect(factsOf(result.all[0])).toMatchObject({
			statusCode: status,
			timesSent: 0,
			outcome: 'mayHaveActed',
		});
	},
);

test('the first stop names what was created; Executions › Retry sends nothing until the user says, then each sequence exists once', async () => {
	// S4 is made, then answered 500 on every send; S7 is answered 500 once, unmade.
	await failCreate(env.sandbox, 'S4', 500, { afterWrite: true });
	await failCreate(env.sandbox, 'S7', 500, { times: 1 });
	const failed = await run(ten());
	stopsAt(failed, 3);
	// Each sequence it names by ID is one the service holds, by the name the error gives it.
	const named = idsIn(descriptionOf(failed));
	expect(named).toHaveLength(3);
	for (const id of named) {
		const held = await env.sandbox.record('sequences', id);
		expect(descriptionOf(failed)).toContain(`"${String(held?.name)}"`);
	}
	const unchanged = await retry(ten(), failed);
	stopsAt(unchanged, 3);
	expect((await sent()).S4).toBe(1);
	// The user checked: S4 exists. S7 goes out for the first time, and fails, unmade; the same say sends it again.
	const said = ten({ S4: 'countAsDone', S7: 'sendAgain' });
	const next = await retry(said, unchanged);
	stopsAt(next, 6);
	// What it names as created never shrinks: S1 to S5, S4 on the user's say.
	for (const { name } of names(5)) expect(descriptionOf(next)).toContain(`"${name}"`);
	const retried = await retry(said, next);
	expect(retried.error).toBeUndefined();
	expect(await sent()).toEqual(each(10, 1, { S7: 2 }));
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 10, duplicateNames: 0 });
	expect(retried.all[3].json).toEqual({ skipped: true, id: null, reason: expect.any(String) });
	expect(recordOf(retried.run)).toBeUndefined();
});

test('Retry On Fail under Continue: the archive that succeeded is not sent again', async () => {
	const result = await run(
		{
			items: [{ id: 'zz-404' }, { id: 'c-42' }],
			onError: 'continueRegularOutput',
			settings: RETRY_ON_FAIL,
		},
		'contact-archive',
	);
	const urls = (await env.sandbox.requests()).map((request) => request.url);
	expect(urls.filter((url) => url === '/v1/contacts/c-42/archive')).toHaveLength(1);
	expect(urls.filter((url) => url === '/v1/contacts/zz-404/archive')).toHaveLength(3);
	expect(result.all.map((item) => [item.pairedItem, factsOf(item)?.outcome])).toEqual([
		[{ item: 0 }, 'notActed'],
		[{ item: 1 }, undefined],
	]);
	expect(result.all[1].json).toEqual(await env.sandbox.record('contacts', 'c-42'));
});

describe('On Error = Stop at S24 of 40 (refused), then Executions › Retry', () => {
	const forty: RunOptions = { items: names(40) };
	const failAt24 = async () => {
		await failCreate(env.sandbox, 'S24', 400, { times: 1 });
		const failed = await run(forty);
		stopsAt(failed, 23);
		expect(JSON.stringify(recordOf(failed.run))).not.toContain(env.sandbox.apiKey);
		return failed;
	};

	test('as saved: only the refused one goes again; each sequence once, the output as stored', async () => {
		const retried = await retry(forty, await failAt24());
		expect(retried.run.mode).toBe('retry');
		expect(await sent()).toEqual(each(40, 1, { S24: 2 }));
		await expectOutputAsStored(
			env.sandbox,
			retried,
			names(40).map(({ name }) => name),
		);
		expect(recordOf(retried.run)).toBeUndefined();
	});

	test('edited (a Timezone that changes every request): what was created is kept, with its earlier answer', async () => {
		const failed = await failAt24();
		const before = await created();
		const edited = { ...forty, parameters: { additionalFields: { timezone: 'Europe/Paris' } } };
		const retried = await retry(edited, failed);
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 40, duplicateNames: 0 });
		await expectOutputAsStored(
			env.sandbox,
			retried,
			names(40).map(({ name }) => name),
		);
		const paris = retried.all.filter((item) => item.json.timezone === 'Europe/Paris');
		expect(paris).toHaveLength(40 - before);
	});
});

test('Get Use Case keeps no record, and a retry reads again', async () => {
	await env.sandbox.addFault({ pathPrefix: '/v1/use_cases/uc-2', status: 500, times: 1 });
	const items = [{ id: 'uc-1' }, { id: 'uc-2' }];
	const readOnce = { rateLimitHandling: { settings: { enabled: false } } };
	const failed = await run({ items, parameters: { requestOptions: readOnce } }, 'use-case-get');
	expect(recordOf(failed.run)).toBeUndefined();
	expect((await retry({ items }, failed, 'use-case-get')).error).toBeUndefined();
	const urls = (await env.sandbox.requests()).map((request) => request.url);
	expect(urls.filter((url) => url.startsWith('/v1/use_cases/')).sort()).toEqual(
		['uc-1', 'uc-1', 'uc-2', 'uc-2'].map((id) => `/v1/use_cases/${id}`),
	);
});

test('an Unconfirmed Earlier Try whose expression fails for one item fails that item alone; the others go on as said', async () => {
	await failCreate(env.sandbox, 'S1', 500, { times: 1, afterWrite: true });
	await failCreate(env.sandbox, 'S4', 500, { times: 1 });
	const result = await run({
		items: names(6),
		onError: 'continueRegularOutput',
		settings: RETRY_ON_FAIL,
		// For S1 the expression fails (it names a node the workflow lacks); S4 is to be sent again.
		parameters: {
			requestOptions: {
				unconfirmedEarlierTry:
					"={{ $json.name === 'S1' ? $('No Such Node').item.json.say : 'sendAgain' }}",
			},
		},
	});
	expect(result.all.map((item) => item.pairedItem)).toEqual(names(6).map((_, item) => ({ item })));
	unsent(result, 0);
	expect(result.all.slice(1).map((item) => item.json.name)).toEqual(['S2', 'S3', 'S4', 'S5', 'S6']);
	expect(await sent()).toEqual(each(6, 1, { S4: 2 }));
});

describe('a node that throws mid-run (n8n could not write its log as the service pushed back)', () => {
	const twelve: RunOptions = { items: names(12) };
	const logger = Container.get(Logger);
	const info = logger.info;

	beforeEach(async () => {
		// S6 is pushed back once; the node's log line about it throws, once, out of the run loop.
		await failCreate(env.sandbox, 'S6', 429, { times: 1, headers: { 'Retry-After': '1' } });
		let thrown = false;
		logger.info = (message: string, metadata?: object) => {
			if (!thrown && message.includes('pushed back')) {
				thrown = true;
				throw new Error('n8n could not write its log');
			}
			info.call(logger, message, metadata as Parameters<typeof info>[1]);
		};
	});
	afterEach(() => {
		logger.info = info;
	});

	test.each(['Executions › Retry', 'Retry On Fail'])(
		'every send is kept first: %s sends only what was never made',
		async (how) => {
			const onFail = how === 'Retry On Fail';
			const first = await run({ ...twelve, settings: onFail ? RETRY_ON_FAIL : undefined });
			const result = onFail ? first : await retry(twelve, first);
			expect(result.error).toBeUndefined();
			expect(await env.sandbox.summary()).toMatchObject({
				sequencesCreated: 12,
				duplicateNames: 0,
			});
			if (onFail) expect(await sent()).toEqual(each(12, 1, { S6: 2 }));
			expect(result.all.map((item) => item.json.name)).toEqual(names(12).map(({ name }) => name));
		},
	);
});
