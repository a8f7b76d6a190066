// An option changes nothing by being added: each option of Request Options,
// added as the editor adds it (its defaults, read from the node's
// description), runs 40 archives as the node runs them without it. One
// answer in the first group of 32 is held until a request of the second
// group arrives: it does arrive, whatever the machine's speed, when requests
// do not wait for each other. The runs are compared by what the sandbox
// recorded (which requests, and whether the second group's marked one arrived
// while the held one was out) and by their outputs; none has more than a
// group in flight at once. Batching at another value (an interval) shows the
// other half of its rule: then each batch waits for the one before, the slow
// answer included.
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	NodeParameterValueType,
} from 'n8n-workflow';

import { OutreachSequences } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';
import type { Fault, RecordedRequest } from '../harness/sandbox.mts';
import { startOver, useEnvironment } from '../harness/setup.mts';
import { runFixture } from '../harness/workflows.mts';

const env = useEnvironment();

const { description } = new OutreachSequences();
const requestOptions = description.properties.find(
	(property) => property.name === 'requestOptions',
)!;

/** Each option of Request Options as "Add Option" adds it: its default, or a group's values at theirs. */
const ADDED: Array<[string, NodeParameterValueType]> = (
	requestOptions.options as INodeProperties[]
).map((option) => {
	if (option.type !== 'fixedCollection') return [option.name, option.default];
	const [group] = option.options as INodePropertyCollection[];
	const values = Object.fromEntries(group.values.map((value) => [value.name, value.default]));
	return [option.name, { [group.name]: values }];
});

const GROUP = 32;
// 40 archives: one item in the first group of 32 is held (its own contact) until the second group's
// marked item (another contact) arrives; the rest are answered at once. The node starts with one request
// in flight and grows (slow start), so the held item is not its first: by then others are answered.
const FIRST_SLOW = 20;
const SECOND_SLOW = GROUP + 4;
const SLOW = { [FIRST_SLOW]: '42', [SECOND_SLOW]: 'c-43' } as Record<number, string>;
const ITEMS = Array.from({ length: 40 }, (_, index) => ({ id: SLOW[index] ?? 'c-42' }));
const HELD: Fault = {
	pathPrefix: `/v1/contacts/${SLOW[FIRST_SLOW]}/`,
	holdUntil: `/v1/contacts/${SLOW[SECOND_SLOW]}/`,
};

/** What a run did: its requests, whether the second slow item started while the first was under way, and its outputs. */
interface RunShape {
	requests: string[];
	secondSlowStartedDuringFirst: boolean;
	outputs: Array<{ json: IDataObject; pairedItem: INodeExecutionData['pairedItem'] }>;
}

async function runWith(options: INodeParameters, fault: Fault = HELD): Promise<RunShape> {
	await startOver(env);
	await env.sandbox.addFault(fault);
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: ITEMS,
		parameters: { requestOptions: options },
		onError: 'continueRegularOutput',
	});
	expect(run.error).toBeUndefined();
	const recorded = await env.sandbox.requests();
	const slow = (id: string): RecordedRequest =>
		recorded.find((request) => request.url === `/v1/contacts/${id}/archive`)!;
	const [first, second] = [slow(SLOW[FIRST_SLOW]), slow(SLOW[SECOND_SLOW])];
	// Never more at once than a group, with or without the option (how many below that depends on the schedule).
	expect(await env.sandbox.maxInFlight()).toBeLessThanOrEqual(GROUP);
	return {
		requests: recorded.map((request) => `${request.method} ${request.url}`).sort(),
		secondSlowStartedDuringFirst: second.arrived < (first.answered ?? Infinity),
		outputs: run.outputs.flat().map(({ json, pairedItem }) => ({ json, pairedItem })),
	};
}

test('every option of Request Options is in this test, each with what "Add Option" sets', () => {
	expect(ADDED.map(([name]) => name).sort()).toEqual(
		[
			'allowUnauthorizedCerts',
			'batching',
			'rateLimitHandling',
			'repeatRecentCreates',
			'skipDoneBefore',
			'timeout',
			'unconfirmedEarlierTry',
		].sort(),
	);
});

describe('each option added at its defaults runs as the node does without it', () => {
	let without: RunShape;
	beforeAll(async () => {
		without = await runWith({});
	}, 60_000);

	test("without any option: the second group does not wait for the first group's slow answer", () => {
		expect(without.requests).toHaveLength(ITEMS.length);
		expect(without.secondSlowStartedDuringFirst).toBe(true);
		expect(without.outputs.map((item) => item.json.id)).toEqual(ITEMS.map((item) => item.id));
	});

	test.each(ADDED)('%s, added as it comes (%j)', async (name, value) => {
		const withIt = await runWith({ [name]: value });
		expect(withIt).toEqual(without);
	});
});

test('Batching with an interval: each batch waits for the one before, its slow answer included', async () => {
	// Held until the next batch's request it waits for, the slow answer would never come: it is late instead.
	const batched = await runWith(
		{ batching: { batch: { batchSize: GROUP, batchInterval: 10 } } },
		{ pathPrefix: HELD.pathPrefix, delayMs: 300 },
	);
	expect(batched.secondSlowStartedDuringFirst).toBe(false);
	expect(batched.requests).toHaveLength(ITEMS.length);
	expect(batched.outputs.map((item) => item.json.id)).toEqual(ITEMS.map((item) => item.id));
});
