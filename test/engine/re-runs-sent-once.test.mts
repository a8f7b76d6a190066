// Issue 43, in n8n's engine against the sandbox: what a re-run must not send
// again. A 303 and a 503 without Retry-After to a create may come after the
// service made it, so neither Retry On Fail nor Executions › Retry sends it
// again without the user's say; an Unconfirmed Earlier Try whose expression
// fails for one item fails that item alone; and a node that throws mid-run
// keeps what each send did first, so that a re-run sends nothing twice.
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { useEnvironment } from '../harness/setup.mts';
import { factsOf, retryFixture, runFixture, type RunOptions } from '../harness/workflows.mts';
import {
	RETRY_ON_FAIL,
	decide,
	failCreate,
	names,
	recordOf,
	sentCounts,
} from './re-runs-harness.mts';

const env = useEnvironment();
const FIXTURE = 'sequence-create-fields';
const six: RunOptions = { items: names(6) };

/** S1 is made, then answered 503 without Retry-After; S4 is made, then answered 303: once each. */
async function madeThenUnconfirmed(): Promise<void> {
	await failCreate(env.sandbox, 'S1', 503, 'gateway', { times: 1, afterWrite: true });
	await env.sandbox.addFault({
		method: 'POST',
		pathPrefix: '/v1/sequences',
		bodyContains: '"name":"S4"',
		status: 303,
		headers: { Location: '/v1/sequences/elsewhere' },
		times: 1,
		afterWrite: true,
	});
}

test('Retry On Fail: a 503 without Retry-After and a 303 to a create fail mayHaveActed, and neither is sent again', async () => {
	await madeThenUnconfirmed();
	const run = await runFixture(env.engine, env.sandbox, FIXTURE, {
		...six,
		onError: 'continueRegularOutput',
		settings: RETRY_ON_FAIL,
	});
	expect(run.error).toBeUndefined();
	// Each was sent once: sent again, it would have been made twice.
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1, S4: 1, S5: 1, S6: 1 });
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 6, duplicateNames: 0 });
	// Sent once in the first try, failed again unsent in the next (timesSent 0), with the earlier answer's facts.
	expect(factsOf(run.all[0])).toMatchObject({
		statusCode: 503,
		timesSent: 0,
		outcome: 'mayHaveActed',
	});
	expect(factsOf(run.all[3])).toMatchObject({
		statusCode: 303,
		timesSent: 0,
		outcome: 'mayHaveActed',
	});
	// n8n ran the node again (the first item had failed): both failed again, unsent, with their earlier words
	// (test/unit/item-error.test.mts): the sequence by name, what the service said, where it pointed.
	expect(run.all[0].json.error).toContain('"S1"');
	expect(run.all[0].json.error).toContain('gateway');
	expect(run.all[3].json.error).toContain('"S4"');
	expect(run.all[3].json.error).toContain('/v1/sequences/elsewhere');
});

test('Executions › Retry: a 503 without Retry-After and a 303 are not sent again until the user says; then each sequence exists once', async () => {
	await madeThenUnconfirmed();
	const failed = await runFixture(env.engine, env.sandbox, FIXTURE, six);
	expect(failed.error).toMatchObject({ context: { itemIndex: 0 } });
	const unchanged = await retryFixture(env.engine, env.sandbox, FIXTURE, six, failed);
	expect(unchanged.error).toMatchObject({ context: { itemIndex: 0 } });
	expect((await sentCounts(env.sandbox)).S1).toBe(1);
	// The user checked: S1 exists. The rest go out; S4 meets the 303 and stops the run.
	const decided = { ...six, parameters: decide({ S1: 'countAsDone', S4: 'countAsDone' }) };
	const first = await retryFixture(env.engine, env.sandbox, FIXTURE, decided, unchanged);
	expect(first.error).toMatchObject({ context: { itemIndex: 3 } });
	expect(first.error).toMatchObject({ httpCode: '303' });
	expect(first.error?.message).toContain('/v1/sequences/elsewhere');
	// The user checked: S4 exists too, and the same say counts it as done.
	const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, decided, first);
	expect(retried.error).toBeUndefined();
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 6, duplicateNames: 0 });
	const sent = await sentCounts(env.sandbox);
	expect([sent.S1, sent.S4]).toEqual([1, 1]);
});

test('an Unconfirmed Earlier Try whose expression fails for one item fails that item alone; the others go on as said', async () => {
	// S1 is made and answered 500; S4 is answered 500 and not made.
	await failCreate(env.sandbox, 'S1', 500, 'late', { times: 1, afterWrite: true });
	await failCreate(env.sandbox, 'S4', 500, 'gateway', { times: 1 });
	const run = await runFixture(env.engine, env.sandbox, FIXTURE, {
		...six,
		onError: 'continueRegularOutput',
		settings: RETRY_ON_FAIL,
		// For S1, item 0, the expression fails (it names a node the workflow lacks); S4 is to be sent again.
		parameters: {
			requestOptions: {
				unconfirmedEarlierTry:
					"={{ $json.name === 'S1' ? $('No Such Node').item.json.say : 'sendAgain' }}",
			},
		},
	});
	expect(run.error).toBeUndefined();
	expect(run.all.map((item) => item.pairedItem)).toEqual(six.items.map((_, item) => ({ item })));
	// Its text names why the expression failed, in n8n's words (test/unit/re-run.test.mts has the rest).
	expect(run.all[0].json.error).toContain("Referenced node doesn't exist");
	// It was sent in the first try: it may have been carried out (it was), whatever the expression did.
	expect(factsOf(run.all[0])).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });
	expect(run.all.slice(1).map((item) => item.json.name)).toEqual(['S2', 'S3', 'S4', 'S5', 'S6']);
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1, S4: 2, S5: 1, S6: 1 });
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 6, duplicateNames: 0 });
});

describe('a node that throws mid-run (n8n could not write its log as the service pushed back)', () => {
	const twelve: RunOptions = { items: names(12) };
	const logger = Container.get(Logger);
	const info = logger.info;

	beforeEach(async () => {
		// S6 is pushed back once; the node's log line about it throws, once, out of the run loop.
		await env.sandbox.addFault({
			method: 'POST',
			pathPrefix: '/v1/sequences',
			bodyContains: '"name":"S6"',
			status: 429,
			headers: { 'Retry-After': '1' },
			times: 1,
		});
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

	test('the error comes out, with every send kept first: Executions › Retry sends only what was never made', async () => {
		const failed = await runFixture(env.engine, env.sandbox, FIXTURE, twelve);
		expect(failed.error?.message).toContain('n8n could not write its log');
		expect(recordOf(failed.run)).toBeDefined();
		const made = (await env.sandbox.summary()).sequencesCreated;
		expect(made).toBeGreaterThan(0);
		const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, twelve, failed);
		expect(retried.error).toBeUndefined();
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 12, duplicateNames: 0 });
		expect(retried.all.map((item) => item.json.name)).toEqual(
			twelve.items.map((item) => item.name),
		);
	});

	test('Retry On Fail runs it again, and nothing is sent twice', async () => {
		const run = await runFixture(env.engine, env.sandbox, FIXTURE, {
			...twelve,
			settings: RETRY_ON_FAIL,
		});
		expect(run.error).toBeUndefined();
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 12, duplicateNames: 0 });
		const sent = await sentCounts(env.sandbox);
		// S6 was pushed back (the service did not act), so it went out again; every other once.
		expect(sent).toEqual(
			Object.fromEntries(twelve.items.map(({ name }) => [name, name === 'S6' ? 2 : 1])),
		);
	});
});
