// An option changes nothing by being added: each option of Request Options, added as the editor
// adds it (its defaults, from the node's description), runs 40 archives as the node runs them
// without it: the same requests and outputs, at most 32 in flight, and the second group of 32 does
// not wait for a slow answer in the first (held until the second group's marked request arrives,
// so it does arrive, at any speed, when requests do not wait for each other). Batching with an
// interval shows the other half of its rule: then each batch waits for the one before.
import type { INodeParameters, INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { OutreachSequences } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';
import type { Fault } from '../harness/sandbox.mts';
import { startOver, useEnvironment } from '../harness/setup.mts';
import { runFixture } from '../harness/workflows.mts';

const env = useEnvironment();

const options = new OutreachSequences().description.properties.find(
	(property) => property.name === 'requestOptions',
)!.options as INodeProperties[];
/** Each option of Request Options as "Add Option" adds it: its default, or a group's values at theirs. */
const ADDED = options.map(({ name, type, default: value, options: groups }) => {
	if (type !== 'fixedCollection') return [name, value] as const;
	const [group] = groups as INodePropertyCollection[];
	return [
		name,
		{ [group.name]: Object.fromEntries(group.values.map((v) => [v.name, v.default])) },
	] as const;
});

// The node starts with one request in flight and grows (slow start): the held item is not its first.
const ITEMS = Array.from({ length: 40 }, (_, index) => ({
	id: { 20: '42', 36: 'c-43' }[index] ?? 'c-42',
}));
const HELD: Fault = { pathPrefix: '/v1/contacts/42/', holdUntil: '/v1/contacts/c-43/' };

async function runWith(requestOptions: INodeParameters, fault: Fault = HELD) {
	await startOver(env);
	await env.sandbox.addFault(fault);
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: ITEMS,
		parameters: { requestOptions },
		onError: 'continueRegularOutput',
	});
	const recorded = await env.sandbox.requests();
	const slow = (id: string) =>
		recorded.find((request) => request.url === `/v1/contacts/${id}/archive`)!;
	expect(await env.sandbox.maxInFlight()).toBeLessThanOrEqual(32);
	return {
		requests: recorded.map((request) => `${request.method} ${request.url}`).sort(),
		secondSlowStartedDuringFirst: slow('c-43').arrived < (slow('42').answered ?? Infinity),
		outputs: run.outputs.map((out) => out.map(({ json, pairedItem }) => ({ json, pairedItem }))),
	};
}

let without: Awaited<ReturnType<typeof runWith>>;
beforeAll(async () => {
	without = await runWith({});
	expect(without.secondSlowStartedDuringFirst).toBe(true);
	expect(without.outputs[0].map(({ json }) => json.id)).toEqual(ITEMS.map(({ id }) => id));
}, 60_000);

test.each(ADDED)(
	'%s, added as it comes (%j), runs as the node does without it',
	async (name, value) => {
		expect(await runWith({ [name]: value })).toEqual(without);
	},
);

test('Batching with an interval: each batch waits for the one before, its slow answer included', async () => {
	// Held until the next batch's request it waits for, the slow answer would never come: it is late instead.
	const batched = await runWith(
		{ batching: { batch: { batchSize: 32, batchInterval: 10 } } },
		{ pathPrefix: HELD.pathPrefix, delayMs: 300 },
	);
	expect(batched.secondSlowStartedDuringFirst).toBe(false);
	expect(batched.outputs).toEqual(without.outputs);
});
