// Request Options › Batching added at its defaults (Limit: Automatic) runs as
// the node does without it, in n8n's own engine: the same requests, the same
// outputs, and the same start, one request in flight until the first answer,
// then one more until the second (the slow start), though the first answer
// comes a second late. The default concurrency is what is compared (Items per
// Batch 32, reached from one request in flight); nothing here depends on how
// fast the answers come: a request that waits for an answer starts after it
// at any speed. Each run starts on a fresh pace, as in a new n8n process.
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { OutreachSequences } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';
import { forgetLearnedPaces, startOver, useEnvironment } from '../harness/setup.mts';
import { runFixture } from '../harness/workflows.mts';

const env = useEnvironment();

// The first item's answer comes late: had the requests not waited for it, the next ones would come first.
const FIRST = 'c-43';
const ITEMS = Array.from({ length: 12 }, (_, index) => ({
	id: index === 0 ? FIRST : index % 3 === 2 ? 'zz-404' : 'c-42',
}));

/** Batching as "Add Option" adds it: each of its values at its default, read from the node's description. */
function batchingAtDefaults(): INodeParameters {
	const requestOptions = new OutreachSequences().description.properties.find(
		(property) => property.name === 'requestOptions',
	)!;
	const batching = (requestOptions.options as Array<{ name: string; options?: unknown }>).find(
		(option) => option.name === 'batching',
	) as { options: Array<{ name: string; values: Array<{ name: string; default: unknown }> }> };
	const [group] = batching.options;
	return {
		[group.name]: Object.fromEntries(group.values.map((value) => [value.name, value.default])),
	} as INodeParameters;
}

async function runWith(requestOptions: INodeParameters) {
	forgetLearnedPaces();
	await startOver(env);
	await env.sandbox.addFault({ pathPrefix: `/v1/contacts/${FIRST}/`, delayMs: 1000 });
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: ITEMS,
		parameters: { requestOptions },
		onError: 'continueRegularOutput',
	});
	expect(run.error).toBeUndefined();
	const recorded = await env.sandbox.requests();
	const [first, second, third] = recorded;
	return {
		requests: recorded.map((request) => `${request.method} ${request.url}`).sort(),
		// The slow start: the second request waits for the first answer, the third for the second.
		oneAtATimeAtFirst:
			second.arrived > (first.answered ?? Infinity) &&
			third.arrived > (second.answered ?? Infinity),
		outputs: run.outputs.flat().map(({ json, pairedItem }: INodeExecutionData) => ({
			json: json as IDataObject,
			pairedItem,
		})),
	};
}

test('Batching added at its defaults sends what the node sends without it, starting the same way', async () => {
	const without = await runWith({});
	expect(without.requests).toHaveLength(ITEMS.length);
	expect(without.oneAtATimeAtFirst).toBe(true);
	expect(without.outputs.filter(({ json }) => json.error !== undefined)).toHaveLength(4);
	const withIt = await runWith({ batching: batchingAtDefaults() });
	expect(withIt).toEqual(without);
});
