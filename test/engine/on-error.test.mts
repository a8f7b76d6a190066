// The three On Error modes in n8n's engine: one output item per input item, with pairedItem, so
// that nodes downstream reach the input item; no request for an item that fails its checks. Each
// fault under each mode: fault-matrix.test.mts; what each failure says: test/unit/texts-*.test.mts.
import { useEnvironment } from '../harness/setup.mts';
import { runFixture, type OnError } from '../harness/workflows.mts';

const env = useEnvironment();

// ok, not found, ok, empty identifier (fails before any request), ok
const items = [{ id: 'c-42' }, { id: 'zz-404' }, { id: 'c-43' }, { id: '' }, { id: '42' }];
const facts = {
	statusCode: 404,
	networkError: null,
	timesSent: 1,
	retryAfterSeconds: null,
	outcome: 'notActed',
};
const unsent = { ...facts, statusCode: null, timesSent: 0 };
const SENT = [
	'/v1/contacts/42/archive',
	'/v1/contacts/c-42/archive',
	'/v1/contacts/c-43/archive',
	'/v1/contacts/zz-404/archive',
];
type Read = { input: { id: string }; result: { id?: string; message?: object } };
const read = (
	run: { output(node: string): Array<Array<{ json: { read?: unknown } }>> },
	node: string,
) => (run.output(node)[0] ?? []).map((item) => item.json.read as Read);

test('Stop: the node stops with the error of the first failing item, and nothing runs after it', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items,
		onError: 'stopWorkflow',
	});
	expect(run.error).toMatchObject({ context: { itemIndex: 1 }, httpCode: '404' });
	expect(run.output('After Success')).toEqual([]);
	expect((await env.sandbox.requests()).map((request) => request.url)).not.toContain(
		'/v1/contacts//archive',
	);
});

test.each<[OnError, number[][]]>([
	['continueRegularOutput', [[0, 1, 2, 3, 4]]],
	[
		'continueErrorOutput',
		[
			[0, 2, 4],
			[1, 3],
		],
	],
])(
	'%s: items on outputs %j, each linked to its input, read downstream by $("Items").item',
	async (onError, outputs) => {
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', { items, onError });
		expect(run.error).toBeUndefined();
		const expected = items.map(({ id }, index) => ({
			pairedItem: { item: index },
			json: [1, 3].includes(index)
				? {
						error: expect.any(String),
						message: index === 1 ? facts : unsent,
						...(outputs.length > 1 && { id }),
					}
				: expect.objectContaining({ id }),
		}));
		expect(
			run.outputs.map((out) => out.map(({ json, pairedItem }) => ({ json, pairedItem }))),
		).toEqual(outputs.map((indexes) => indexes.map((index) => expected[index])));
		const downstream = [...read(run, 'After Success'), ...read(run, 'After Error')];
		expect(downstream.map(({ input, result }) => [input.id, result.message ?? result.id])).toEqual(
			outputs
				.flat()
				.map((index) => [
					items[index].id,
					[1, 3].includes(index) ? expected[index].json.message : items[index].id,
				]),
		);
		expect((await env.sandbox.requests()).map((request) => request.url).sort()).toEqual(SENT);
	},
);

test('an expression that throws for one item fails only that item, linked to its input', async () => {
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
	expect(failure.map((item) => [item.pairedItem, item.json.error])).toEqual([
		[{ item: 1 }, "Referenced node doesn't exist"],
	]);
	expect(read(run, 'After Error').map(({ input }) => input)).toEqual([{ raw: '{oops' }]);
	expect(await env.sandbox.requests()).toHaveLength(2);
});
