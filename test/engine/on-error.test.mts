// An expression that throws for one item, in n8n's engine: only that item fails, linked to its
// input. Each fault under each On Error mode, and downstream reads: fault-matrix.test.mts; an item
// that fails its checks, unsent: identifier-operations.test.mts.
import { useEnvironment } from '../harness/setup.mts';
import { runFixture } from '../harness/workflows.mts';

const env = useEnvironment();

const read = (run: { output(node: string): Array<Array<{ json: { read?: unknown } }>> }) =>
	(run.output('After Error')[0] ?? []).map((item) => (item.json.read as { input: object }).input);

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
	expect(read(run)).toEqual([{ raw: '{oops' }]);
	expect(await env.sandbox.requests()).toHaveLength(2);
});
