// Sequence › Create: the body in both modes, exactly as specified; a body
// that can't be sent fails its item, unsent.
import { loadFixture, OUTREACH, runFixture } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();
/** The facts of an item never sent: nothing reached the service. */
const NOT_SENT = {
	statusCode: null,
	networkError: null,
	timesSent: 0,
	retryAfterSeconds: null,
	outcome: 'notActed',
};

async function onlyRequest() {
	const requests = await env.sandbox.requests();
	expect(requests).toHaveLength(1);
	expect(requests[0].method).toBe('POST');
	expect(requests[0].url).toBe('/v1/sequences');
	expect(requests[0].headers['content-type']).toBe('application/json');
	expect(requests[0].headers['x-api-key']).toBe(env.sandbox.apiKey);
	return requests[0];
}

describe('Using Fields Below', () => {
	test('sends what the user set, numbers as integers and scripts as lists, and outputs the created sequence', async () => {
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items: [{ name: 'Spring follow-up' }],
			parameters: {
				additionalFields: {
					description: 'After the webinar',
					criteria: 'status == "lead"',
					timezone: 'Europe/Berlin',
				},
			},
		});
		const request = await onlyRequest();
		expect(JSON.parse(request.body)).toEqual({
			name: 'Spring follow-up',
			description: 'After the webinar',
			criteria: 'status == "lead"',
			timezone: 'Europe/Berlin',
			schedules: [
				{ dayOffset: 0, hour: 9, minute: 30, delayInMinutes: 0, sequenceScripts: ['phone-1'] },
				{
					dayOffset: 1,
					hour: 14,
					minute: 0,
					delayInMinutes: 15,
					sequenceScripts: ['email-1', 'txt-1'],
				},
				{ dayOffset: 3, hour: 10, minute: 5, delayInMinutes: 0 },
			],
		});
		expect(request.status).toBe(201);

		const [item] = run.all;
		expect(item.pairedItem).toEqual({ item: 0 });
		const stored = await env.sandbox.record('sequences', String(item.json.id));
		expect(item.json).toEqual(stored);
		// Script objects in the answer keep their $type discriminator.
		const schedules = item.json.schedules as Array<Record<string, { $type?: string }>>;
		expect(schedules[0].phoneScript.$type).toBe('PhoneScript');
		expect(schedules[1].textScript.$type).toBe('TextScript');
	});

	test('with nothing set the body is exactly {}', async () => {
		await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items: [{}],
			parameters: { name: '', additionalFields: {}, schedules: {} },
		});
		expect((await onlyRequest()).body).toBe('{}');
	});

	test('empty or blank text fields are left out', async () => {
		await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items: [{ name: '   ' }],
			parameters: {
				additionalFields: { description: '', criteria: '', timezone: '' },
				schedules: {},
			},
		});
		expect((await onlyRequest()).body).toBe('{}');
	});

	test('scripts from an expression that yields a list; integer text from a spreadsheet is accepted', async () => {
		await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items: [{ name: 'x', scripts: [' phone-1 ', '', 'txt-1'], hour: '7' }],
			parameters: {
				schedules: {
					schedule: [
						{
							dayOffset: 0,
							hour: '={{ $json.hour }}',
							minute: 0,
							delayInMinutes: 0,
							sequenceScripts: '={{ $json.scripts }}',
						},
					],
				},
			},
		});
		const body = JSON.parse((await onlyRequest()).body);
		expect(body.schedules).toEqual([
			{
				dayOffset: 0,
				hour: 7,
				minute: 0,
				delayInMinutes: 0,
				sequenceScripts: ['phone-1', 'txt-1'],
			},
		]);
	});

	// What each says, naming row and field: test/unit/validation.test.mts.
	test.each([
		['a fraction', 2.5],
		['text', 'noon'],
		['a fractional text', '7.5'],
		['nothing', null],
	])('an hour that is %s is an error item, and nothing is sent', async (_, hour) => {
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items: [{ name: 'x', hour }],
			onError: 'continueRegularOutput',
			parameters: {
				schedules: {
					schedule: [
						{ dayOffset: 0, hour: 1, minute: 0, delayInMinutes: 0, sequenceScripts: '' },
						{
							dayOffset: 0,
							hour: '={{ $json.hour }}',
							minute: 0,
							delayInMinutes: 0,
							sequenceScripts: '',
						},
					],
				},
			},
		});
		expect(run.all).toEqual([
			expect.objectContaining({
				json: { error: expect.any(String), message: NOT_SENT },
				pairedItem: { item: 0 },
			}),
		]);
		expect(await env.sandbox.requests()).toHaveLength(0);
	});
});

test("fields without an expression are the same in every item's body; a name from an expression is each item's own", async () => {
	const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
		items: [{ name: 'First' }, { name: 'Second' }, { name: 'Third' }],
	});
	expect(run.all.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	const bodies = (await env.sandbox.requests()).map(
		(request) => JSON.parse(request.body) as Record<string, unknown>,
	);
	expect(bodies.map(({ name }) => name).sort()).toEqual(['First', 'Second', 'Third']);
	const rests = bodies.map(({ name: _name, ...rest }) => JSON.stringify(rest));
	expect(new Set(rests).size).toBe(1);
	expect(Object.keys(JSON.parse(rests[0]))).toEqual(['timezone', 'schedules']);
});

describe('Using JSON', () => {
	test('sends the JSON text exactly as written, nulls included', async () => {
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-json', { items: [{}] });
		const request = await onlyRequest();
		const written = loadFixture('sequence-create-json').nodes.find(
			(node) => node.name === OUTREACH,
		)!.parameters.jsonBody as string;
		expect(request.body).toBe(written.trim());
		expect(JSON.parse(request.body).criteria).toBeNull();
		expect(run.all[0].json).toEqual(
			await env.sandbox.record('sequences', String(run.all[0].json.id)),
		);
	});

	test('an object from an expression is sent as that object', async () => {
		const object = {
			name: 'From expression',
			timezone: null,
			schedules: [{ hour: 6, sequenceScripts: null }],
		};
		await runFixture(env.engine, env.sandbox, 'sequence-create-json', {
			items: [{ body: object }],
			parameters: { jsonBody: '={{ $json.body }}' },
		});
		expect((await onlyRequest()).body).toBe(JSON.stringify(object));
	});

	test('a JSON Body without an expression is sent as written for every item', async () => {
		const jsonBody = '{ "name": "Same for all" }';
		await runFixture(env.engine, env.sandbox, 'sequence-create-json', {
			items: [{}, {}, {}],
			parameters: { jsonBody },
		});
		const requests = await env.sandbox.requests();
		expect(requests.map((request) => request.body)).toEqual([jsonBody, jsonBody, jsonBody]);
	});

	test('one that is not valid JSON fails every item, each an error item of its own, linked to its input', async () => {
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-json', {
			items: [{}, {}, {}],
			parameters: { jsonBody: '{"name": "x",}' },
			onError: 'continueRegularOutput',
		});
		expect(run.all.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const item of run.all)
			expect(item.json).toEqual({ error: expect.any(String), message: NOT_SENT });
		expect(new Set(run.all.map((item) => item.json.error)).size).toBe(1);
		expect(await env.sandbox.requests()).toHaveLength(0);
	});

	test.each([
		['invalid JSON', '{"name": "x",}'],
		['a list', '[{"name": "x"}]'],
		['null', 'null'],
		['empty', '  '],
	])('%s is an error item, and nothing is sent', async (_, jsonBody) => {
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-json', {
			items: [{}],
			parameters: { jsonBody },
			onError: 'continueRegularOutput',
		});
		expect(run.all[0].json).toEqual({ error: expect.any(String), message: NOT_SENT });
		expect(run.all[0].pairedItem).toEqual({ item: 0 });
		expect(await env.sandbox.requests()).toHaveLength(0);
	});
});
