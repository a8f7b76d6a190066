// Execution hints in n8n's own engine: what the output pane shows after a
// run, which kinds of hint a run gives and whom they name. They are in the
// run data (runData[node][0].hints) as n8n stores them. Their words, from a
// run's summary: test/unit/hints*.test.mts.
import type { NodeExecutionHint } from 'n8n-workflow';

import { runFixture, type FixtureRun } from '../harness/workflows.mts';
import { startOver, useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };

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

test('a rate-limited run: one info hint, and the item pushed back on was sent again until it was archived', async () => {
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
	expect(hintsOf(run)).toEqual([
		{ type: 'info', location: 'outputPane', message: expect.any(String) },
	]);
	const statuses = (await env.sandbox.requests())
		.filter((request) => request.url === '/v1/contacts/c-43/archive')
		.map((request) => request.status);
	expect(statuses).toEqual([429, 429, 200]);
	expect(run.all.map((item) => item.json.id)).toEqual(['c-42', 'c-43', '42']);
});

test('failed items under Continue: a warning that names the one to check first, and the facts on each item', async () => {
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
	// The one the service may have acted on is named by its ID.
	expect(hints[0].message).toContain('"42"');
	expect(hints[0].message).not.toContain('"zz-404"');
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
	expect(hintsOf(run).map((hint) => hint.type)).toEqual(['warning']);
	expect(hintsOf(run)[0].message).toContain('"42"');
});

/** The Retry On Fail warning, as a clean run under Continue shows it: its only hint. */
async function retryOnFailWarning(): Promise<NodeExecutionHint> {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }],
		onError: 'continueRegularOutput',
		settings: { retryOnFail: true },
	});
	expect(run.error).toBeUndefined();
	const hints = hintsOf(run);
	expect(hints).toEqual([{ type: 'warning', location: 'outputPane', message: expect.any(String) }]);
	await startOver(env);
	return hints[0];
}

test('Retry On Fail on, under Continue: the warning is shown though nothing failed', async () => {
	const warning = await retryOnFailWarning();
	expect(warning.message).not.toBe('');
});

test("Retry On Fail on, under Stop: the warning is in the error, and n8n's next try sends nothing again: what the service may have carried out waits for the user's say", async () => {
	// Item 2 fails with 500; n8n re-runs the whole node: items 0 and 1 come from the record, item 2 fails again unsent (re-runs.test.mts).
	const items = [{ id: 'c-42' }, { id: 'c-43' }, { id: '42' }];
	const warning = await retryOnFailWarning();
	const boom = { pathPrefix: '/v1/contacts/42/', status: 500, body: { message: 'boom' } };
	// Without Retry On Fail, the run's one try: the error the next try starts from.
	await env.sandbox.addFault(boom);
	const once = await runFixture(env.engine, env.sandbox, 'contact-archive', { items });
	await startOver(env);
	await env.sandbox.addFault(boom);
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items,
		settings: RETRY_ON_FAIL,
	});
	const description = String((run.error as { description?: string }).description);
	expect(description.endsWith(`\n\n${warning.message}`)).toBe(true);
	const urls = (await env.sandbox.requests()).map((request) => request.url);
	expect(urls.filter((url) => url === '/v1/contacts/c-42/archive')).toHaveLength(1);
	expect(urls.filter((url) => url === '/v1/contacts/42/archive')).toHaveLength(1);
	// The last try failed item 2 again, unsent, with the first try's words; the HTTP code was the first try's.
	expect(once.error).toMatchObject({ context: { itemIndex: 2 }, httpCode: '500' });
	expect(run.error).toMatchObject({ context: { itemIndex: 2 } });
	expect(run.error?.message.startsWith(`${once.error?.message} `)).toBe(true);
	expect(run.error).not.toMatchObject({ httpCode: '500' });
});

test('Retry On Fail on, under Continue: when the first output item is a failed one, n8n runs the node again with every item, as the warning says', async () => {
	// zz-404 fails first; n8n sees json.error on the first item and runs the node again; c-42 comes from the record.
	const warning = await retryOnFailWarning();
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'zz-404' }, { id: 'c-42' }],
		onError: 'continueRegularOutput',
		settings: RETRY_ON_FAIL,
	});
	expect(run.error).toBeUndefined();
	const urls = (await env.sandbox.requests()).map((request) => request.url);
	expect(urls.filter((url) => url === '/v1/contacts/c-42/archive')).toHaveLength(1);
	expect(urls.filter((url) => url === '/v1/contacts/zz-404/archive')).toHaveLength(2);
	expect(hintsOf(run)[0]).toEqual(warning);
});

test('Get Use Case changes nothing: no Retry On Fail warning', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
		items: [{ id: 'uc-1' }],
		onError: 'continueRegularOutput',
		settings: { retryOnFail: true },
	});
	expect(hintsOf(run)).toEqual([]);
});
