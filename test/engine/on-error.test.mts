// The three On Error modes: exactly one output item per input item, in order,
// with pairedItem intact, so that nodes downstream can reach the input item.
// What each failure says: test/unit/texts-http.test.mts, validation.test.mts.
import type { IDataObject } from 'n8n-workflow';

import { runFixture } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();

// ok, not found, ok, empty identifier (fails before any request), ok
const items = [{ id: 'c-42' }, { id: 'zz-404' }, { id: 'c-43' }, { id: '' }, { id: '42' }];
/** The facts of the contact the service does not know, and of the one never sent. */
const notFound = {
	statusCode: 404,
	networkError: null,
	timesSent: 1,
	retryAfterSeconds: null,
	outcome: 'notActed',
};
const neverSent = { ...notFound, statusCode: null, timesSent: 0 };
/** A failed item as n8n puts it out: a text that names the contact, where it has one, and its facts. */
const failedWith = (facts: object, names?: string) => ({
	error: names === undefined ? expect.any(String) : expect.stringContaining(`"${names}"`),
	message: facts,
});
/** Each item's ID, or its failure's text and facts. */
const ends = (outputs: Array<{ json: IDataObject }>) =>
	outputs.map((item) => item.json.id ?? { error: item.json.error, message: item.json.message });

test('Stop: the node stops with the error of the first failing item', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items,
		onError: 'stopWorkflow',
	});
	expect(run.error?.message).toContain('"zz-404"');
	expect(run.error).toMatchObject({ context: { itemIndex: 1 }, httpCode: '404' });
	expect(run.output('After Success')).toEqual([]);
	expect((await env.sandbox.requests()).map((request) => request.url)).not.toContain(
		'/v1/contacts//archive',
	);
});

test('Continue: one item per input item, in order, errors in json.error, linked back to the input', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items,
		onError: 'continueRegularOutput',
	});
	expect(run.error).toBeUndefined();
	expect(run.outputs).toHaveLength(1);
	expect(run.outputs[0].map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	expect(ends(run.outputs[0])).toEqual([
		'c-42',
		failedWith(notFound, 'zz-404'),
		'c-43',
		failedWith(neverSent),
		'42',
	]);

	// A node downstream reads the input item through $('Items').item.
	const read = run
		.output('After Success')[0]
		.map((item) => item.json.read as { input: { id: string }; result: Record<string, unknown> });
	expect(read.map((entry) => entry.input.id)).toEqual(items.map((item) => item.id));
	expect(read[1].result).toEqual(run.outputs[0][1].json);
	expect(read[1].result).toEqual(failedWith(notFound, 'zz-404'));
	expect(read[4].result.id).toBe('42');
	expect((await env.sandbox.requests()).map((request) => request.url).sort()).toEqual([
		'/v1/contacts/42/archive',
		'/v1/contacts/c-42/archive',
		'/v1/contacts/c-43/archive',
		'/v1/contacts/zz-404/archive',
	]);
});

test('Continue (using error output): successes and errors on their own outputs, each linked to its input', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items,
		onError: 'continueErrorOutput',
	});
	expect(run.error).toBeUndefined();
	const [success, failure] = run.outputs;
	expect(success.map((item) => [item.pairedItem, item.json.id])).toEqual([
		[{ item: 0 }, 'c-42'],
		[{ item: 2 }, 'c-43'],
		[{ item: 4 }, '42'],
	]);
	expect(failure.map((item) => [item.pairedItem, item.json.message])).toEqual([
		[{ item: 1 }, notFound],
		[{ item: 3 }, neverSent],
	]);

	const readSuccess = run
		.output('After Success')[0]
		.map((item) => (item.json.read as { input: { id: string } }).input.id);
	const readError = run
		.output('After Error')[0]
		.map((item) => item.json.read as { input: { id: string }; result: { error: string } });
	expect(readSuccess).toEqual(['c-42', 'c-43', '42']);
	expect(readError.map((entry) => [entry.input.id, entry.result.error])).toEqual(
		failure.map((item) => [item.json.id, item.json.error]),
	);
});

test.each(['continueRegularOutput', 'continueErrorOutput'] as const)(
	'%s: the facts are at $json.message in either mode, and n8n routes the failed items by them',
	async (onError) => {
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', { items, onError });
		const failed = run.outputs[onError === 'continueErrorOutput' ? 1 : 0].filter(
			(item) => item.json.error !== undefined,
		);
		// n8n's engine put exactly the failed items on the error output; both carry their outcome at one path.
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 3 }]);
		if (onError === 'continueErrorOutput')
			expect(run.outputs[0].every((item) => item.json.error === undefined)).toBe(true);
		expect(failed.map((item) => (item.json.message as { outcome: string }).outcome)).toEqual([
			'notActed',
			'notActed',
		]);
		// A node downstream reads them through the same expression.
		const after = run.output(onError === 'continueErrorOutput' ? 'After Error' : 'After Success');
		const outcomes = after[0]
			.map((item) => (item.json.read as { result: { message?: { outcome?: string } } }).result)
			.map((result) => result.message?.outcome ?? null);
		expect(outcomes.filter((outcome) => outcome !== null)).toEqual(['notActed', 'notActed']);
	},
);

test('a Base URL that is not http(s) fails every item, unsent, with a message that names it, and sends nothing', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }, { id: 'c-43' }],
		onError: 'continueErrorOutput',
		credential: { apiKey: env.sandbox.apiKey, baseUrl: 'ftp://outreach.example' },
	});
	const [success, failure] = run.outputs;
	expect(success).toEqual([]);
	expect(failure.map((item) => [item.pairedItem, item.json.error, item.json.message])).toEqual([
		[{ item: 0 }, expect.stringContaining('"ftp://outreach.example"'), neverSent],
		[{ item: 1 }, expect.stringContaining('"ftp://outreach.example"'), neverSent],
	]);
	expect(await env.sandbox.requests()).toHaveLength(0);
});

test.each([
	['trailing slashes and spaces', (url: string) => `  ${url}///  `],
	['a /v1 suffix', (url: string) => `${url}/v1`],
	['a /v1/ suffix', (url: string) => `${url}/v1/`],
])('a Base URL with %s reaches the same /v1 paths', async (_, shape) => {
	const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
		items: [{ id: 'uc-1' }],
		credential: { apiKey: env.sandbox.apiKey, baseUrl: shape(env.sandbox.url) },
	});
	expect(run.error).toBeUndefined();
	expect((await env.sandbox.requests()).map((request) => request.url)).toEqual([
		'/v1/use_cases/uc-1',
	]);
});

describe('pacing', () => {
	const many = Array.from({ length: 60 }, (_, index) => ({ id: index % 2 ? 'c-42' : 'c-43' }));

	test('with Batching, the service never sees more requests at once than the batch size', async () => {
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: many,
			parameters: { requestOptions: { batching: { batch: { batchSize: 4, batchInterval: 0 } } } },
		});
		expect(run.all).toHaveLength(60);
		expect(run.all.map((item) => item.pairedItem)).toEqual(many.map((_, item) => ({ item })));
		expect(await env.sandbox.maxInFlight()).toBeLessThanOrEqual(4);
		expect(await env.sandbox.requests()).toHaveLength(60);
	});

	test('Batch Interval makes batches: each starts after every answer of the one before', async () => {
		await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: many.slice(0, 6),
			parameters: { requestOptions: { batching: { batch: { batchSize: 2, batchInterval: 10 } } } },
		});
		// Three batches of two, in the order the service saw them; how long the pause is: loop.test.mts.
		const requests = await env.sandbox.requests();
		expect(requests).toHaveLength(6);
		for (const next of [2, 4]) {
			const before = requests.slice(next - 2, next).map((request) => request.answered ?? Infinity);
			const after = requests.slice(next, next + 2).map((request) => request.arrived);
			expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
		}
	});

	test('without Batching, requests run in parallel up to the node bound', async () => {
		// The 10th request is held until another arrives: more than one at once, however slow the machine.
		await env.sandbox.addFault({
			pathPrefix: '/v1/contacts/',
			every: 10,
			times: 1,
			holdUntil: '/v1/contacts/',
		});
		await env.sandbox.addFault({
			pathPrefix: '/v1/contacts/',
			delayMs: 30,
			status: 200,
			body: { id: 'slow' },
		});
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [...many, ...many],
		});
		expect(run.all).toHaveLength(120);
		const peak = await env.sandbox.maxInFlight();
		expect(peak).toBeGreaterThan(1);
		expect(peak).toBeLessThanOrEqual(32);
	});
});

test('an expression that throws for one item fails only that item, on the error output, linked to its input', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ raw: '{"id":"c-42"}' }, { raw: '{oops' }, { raw: '{"id":"c-43"}' }],
		// Only the middle item evaluates the reference to a node that does not exist.
		parameters: {
			contactId:
				"={{ $json.raw.startsWith('{o') ? $('No Such Node').item.json.id : JSON.parse($json.raw).id }}",
		},
		onError: 'continueErrorOutput',
	});
	const [success, failure] = run.outputs;
	expect(success.map((item) => [item.pairedItem, item.json.id])).toEqual([
		[{ item: 0 }, 'c-42'],
		[{ item: 2 }, 'c-43'],
	]);
	expect(failure).toHaveLength(1);
	expect(failure[0].pairedItem).toEqual({ item: 1 });
	expect(failure[0].json.error).toBe("Referenced node doesn't exist");
	const readError = run
		.output('After Error')[0]
		.map((item) => (item.json.read as { input: unknown }).input);
	expect(readError).toEqual([{ raw: '{oops' }]);
	expect(await env.sandbox.requests()).toHaveLength(2);
});
