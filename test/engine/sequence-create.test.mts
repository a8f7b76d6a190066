// Sequence › Create in n8n's engine: the body in both modes, as the sandbox
// received it, and the created sequence as the output; a body that can't be
// sent fails its item unsent. Each value and sentence: test/unit/validation.test.mts.
import { loadFixture, OUTREACH, runFixture } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();
const NOT_SENT = {
	statusCode: null,
	networkError: null,
	timesSent: 0,
	retryAfterSeconds: null,
	outcome: 'notActed',
};
/** A schedule row, as n8n stores it (numbers, or expressions as text). */
const step = (hour: unknown, sequenceScripts: unknown) =>
	({ dayOffset: 0, hour, minute: 0, delayInMinutes: 0, sequenceScripts }) as unknown as Record<
		string,
		string
	>;

async function bodies() {
	const requests = await env.sandbox.requests();
	for (const request of requests) {
		expect([request.method, request.url, request.headers['content-type']]).toEqual([
			'POST',
			'/v1/sequences',
			'application/json',
		]);
		expect(request.headers['x-api-key']).toBe(env.sandbox.apiKey);
	}
	return requests.map((request) => request.body);
}

test("Using Fields Below: each item's expressions, the rest alike; the created sequence is the output", async () => {
	const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
		items: [
			{ name: 'First', hour: '7', scripts: [' phone-1 ', ''] },
			{ name: 'Second', hour: 8, scripts: 'txt-1' },
		],
		parameters: {
			additionalFields: { criteria: 'status == "lead"', description: '' },
			schedules: { schedule: [step('={{ $json.hour }}', '={{ $json.scripts }}'), step(9, '')] },
		},
	});
	const sent = (await bodies()).map((body) => JSON.parse(body) as Record<string, unknown>);
	sent.sort((a, b) => String(a.name).localeCompare(String(b.name)));
	expect(sent).toEqual(
		[
			['First', 7, ['phone-1']],
			['Second', 8, ['txt-1']],
		].map(([name, hour, sequenceScripts]) => ({
			name,
			criteria: 'status == "lead"',
			schedules: [
				step(hour, sequenceScripts),
				{ dayOffset: 0, hour: 9, minute: 0, delayInMinutes: 0 },
			],
		})),
	);
	expect(run.all.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	for (const item of run.all)
		expect(item.json).toEqual(await env.sandbox.record('sequences', String(item.json.id)));
	// Script objects in the answer keep their $type discriminator.
	expect(
		(run.all[0].json.schedules as Array<{ phoneScript: { $type: string } }>)[0].phoneScript.$type,
	).toBe('PhoneScript');
});

test('Using JSON: the text as written for every item, or the object an expression gives', async () => {
	const written = loadFixture('sequence-create-json').nodes.find((node) => node.name === OUTREACH)!
		.parameters.jsonBody as string;
	await runFixture(env.engine, env.sandbox, 'sequence-create-json', { items: [{}, {}] });
	expect(await bodies()).toEqual([written.trim(), written.trim()]);
	await env.sandbox.reset();
	const object = { name: 'From expression', timezone: null, schedules: [{ hour: 6 }] };
	await runFixture(env.engine, env.sandbox, 'sequence-create-json', {
		items: [{ body: object }],
		parameters: { jsonBody: '={{ $json.body }}' },
	});
	expect(await bodies()).toEqual([JSON.stringify(object)]);
});

test.each([
	['sequence-create-json', { jsonBody: '{"name": "x",}' }],
	['sequence-create-fields', { schedules: { schedule: [step('={{ $json.hour }}', '')] } }],
])(
	'%s: a body that cannot be sent fails each item, unsent, linked to its input',
	async (fixture, parameters) => {
		const run = await runFixture(env.engine, env.sandbox, fixture, {
			items: [{ hour: 2.5 }, { hour: 'noon' }],
			parameters,
			onError: 'continueRegularOutput',
		});
		expect(run.all).toEqual(
			[0, 1].map((item) => ({
				json: { error: expect.any(String), message: NOT_SENT },
				pairedItem: { item },
			})),
		);
		expect(await env.sandbox.requests()).toEqual([]);
	},
);
