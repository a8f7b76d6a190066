// Execution hints in n8n's own engine: what the output pane shows after a
// run. They are in the run data (runData[node][0].hints) as n8n stores them.
import type { NodeExecutionHint } from 'n8n-workflow';

import { RETRY_ON_FAIL_TEXT } from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import { runFixture, type FixtureRun } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();

function hintsOf(run: FixtureRun): NodeExecutionHint[] {
	const data = run.run.data.resultData.runData['Outreach Sequences']?.[0] as
		| { hints?: NodeExecutionHint[] }
		| undefined;
	return data?.hints ?? [];
}

test('a clean run shows no hint', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }, { id: 'c-43' }],
	});
	expect(run.error).toBeUndefined();
	expect(hintsOf(run)).toEqual([]);
});

test('a rate-limited run: one info hint, with the push-back, the retried item and that every item succeeded', async () => {
	// c-43 is answered 429 twice, asking for 1 s each time, then archived.
	await env.sandbox.addFault({
		pathPrefix: '/v1/contacts/c-43/',
		status: 429,
		headers: { 'Retry-After': '1' },
		body: { message: 'slow down' },
		times: 2,
	});
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }, { id: 'c-43' }, { id: '42' }],
	});
	expect(run.error).toBeUndefined();
	const hints = hintsOf(run);
	expect(hints).toHaveLength(1);
	expect(hints[0]).toMatchObject({ type: 'info', location: 'outputPane' });
	expect(hints[0].message).toMatch(
		/^The outreach service pushed back 2 times \(HTTP 429, 503 or rate-limit headers\): 1 item was sent again\. \d+ requests? waited [\d.]+ seconds? in all, at most [\d.]+ seconds?\. All 3 items succeeded\.$/,
	);
	const longest = Number(/at most ([\d.]+) second/.exec(hints[0].message)?.[1]);
	expect(longest).toBeGreaterThanOrEqual(1);
});

test('failed items under Continue: a warning that names them, the one to check first, and the facts on each item', async () => {
	// c-43 is not known (404, rejected); 42 fails with 500 after it was sent (may have been carried out); the empty ID is never sent.
	await env.sandbox.addFault({
		pathPrefix: '/v1/contacts/42/',
		status: 500,
		body: { message: 'boom' },
	});
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }, { id: 'zz-404' }, { id: '42' }, { id: '' }],
		onError: 'continueRegularOutput',
	});
	const [items] = run.outputs;
	expect(
		items.map((item) => {
			const facts = item.json.message as Record<string, unknown> | undefined;
			return [facts?.outcome, facts?.statusCode, facts?.timesSent];
		}),
	).toEqual([
		[undefined, undefined, undefined],
		['notActed', 404, 1],
		['mayHaveActed', 500, 1],
		['notActed', null, 0],
	]);
	const hints = hintsOf(run);
	expect(hints.map((hint) => hint.type)).toEqual(['warning']);
	expect(hints[0].message).toBe(
		'3 of 4 items failed: item 2 ("42") may have been archived: check before sending it again. Items 1 and 3 were not; {{ $json.message.outcome }} says which.',
	);
});

test('Continue (using error output): each failed item on the error output, with its facts in message and its pairedItem', async () => {
	await env.sandbox.addFault({ pathPrefix: '/v1/contacts/42/', drop: 'before-response' });
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }, { id: 'zz-404' }, { id: '42' }],
		onError: 'continueErrorOutput',
	});
	const [success, failure] = run.outputs;
	expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
	expect(
		failure.map((item) => [
			item.pairedItem,
			item.json.id,
			(item.json.message as { outcome: string }).outcome,
		]),
	).toEqual([
		[{ item: 1 }, 'zz-404', 'notActed'],
		[{ item: 2 }, '42', 'mayHaveActed'],
	]);
	expect(failure[1].json.message).toEqual({
		statusCode: null,
		networkError: 'reset',
		timesSent: 1,
		retryAfterSeconds: null,
		outcome: 'mayHaveActed',
	});
	expect(hintsOf(run)[0].message).toMatch(
		/^2 of 3 items failed: item 2 \("42"\) may have been archived: /,
	);
});

test('Retry On Fail on, under Continue: the warning is shown though nothing failed', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }],
		onError: 'continueRegularOutput',
		settings: { retryOnFail: true },
	});
	expect(hintsOf(run)).toEqual([
		{ type: 'warning', location: 'outputPane', message: RETRY_ON_FAIL_TEXT },
	]);
});

test("Retry On Fail on, under Stop: the warning is in the error, and n8n's next try sends nothing again: what the service may have carried out waits for the user's say", async () => {
	// Item 2 fails with 500; n8n re-runs the whole node: items 0 and 1 come from the record, item 2 fails again unsent (re-runs.test.mts).
	await env.sandbox.addFault({
		pathPrefix: '/v1/contacts/42/',
		status: 500,
		body: { message: 'boom' },
	});
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }, { id: 'c-43' }, { id: '42' }],
		settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
	});
	expect((run.error as { description?: string }).description).toContain(RETRY_ON_FAIL_TEXT);
	const urls = (await env.sandbox.requests()).map((request) => request.url);
	expect(urls.filter((url) => url === '/v1/contacts/c-42/archive')).toHaveLength(1);
	expect(urls.filter((url) => url === '/v1/contacts/42/archive')).toHaveLength(1);
	expect(run.error?.message).toContain(
		'n8n ran the node again, and it was not sent again: once checked, say what to do in Request Options › Unconfirmed Earlier Try.',
	);
});

test('Retry On Fail on, under Continue: when the first output item is a failed one, n8n runs the node again with every item, as the warning says', async () => {
	// zz-404 fails first; n8n sees json.error on the first item and runs the node again; c-42 comes from the record.
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'zz-404' }, { id: 'c-42' }],
		onError: 'continueRegularOutput',
		settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
	});
	expect(run.error).toBeUndefined();
	const urls = (await env.sandbox.requests()).map((request) => request.url);
	expect(urls.filter((url) => url === '/v1/contacts/c-42/archive')).toHaveLength(1);
	expect(urls.filter((url) => url === '/v1/contacts/zz-404/archive')).toHaveLength(2);
	expect(hintsOf(run)[0].message).toBe(RETRY_ON_FAIL_TEXT);
});

test('Get Use Case changes nothing: no Retry On Fail warning', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
		items: [{ id: 'uc-1' }],
		onError: 'continueRegularOutput',
		settings: { retryOnFail: true },
	});
	expect(hintsOf(run)).toEqual([]);
});
