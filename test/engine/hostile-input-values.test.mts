// Hostile input, as properties (fast-check): JSON bodies and schedule numbers
// that users, spreadsheets and webhooks can hand the node. Each property runs
// a whole batch of generated items through one workflow run and checks every
// item and every request the sandbox received. Identifiers:
// hostile-input.test.mts.
import fc from 'fast-check';

import { runFixture } from '../harness/workflows.mts';
import { startOver, useEnvironment } from '../harness/setup.mts';
import { brokenCharacter, RUNS } from './hostile-input-harness.mts';

const env = useEnvironment();
/** A failed item's facts when its request was refused before it was made. */
const NEVER_SENT = { statusCode: null, timesSent: 0, outcome: 'notActed' };

// ── JSON bodies ─────────────────────────────────────────────────────────────
const jsonObjectText = fc
	.tuple(
		fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), {
			maxKeys: 6,
		}),
		fc.constantFrom(undefined, 0, 2, '\t'),
		fc.constantFrom('', ' ', '\n  '),
	)
	.map(([object, indent, pad]) => `${pad}${JSON.stringify(object, null, indent)}${pad}`);
/** Typos people make when pasting JSON, and JSON that is not an object. */
const brokenText = fc.oneof(
	jsonObjectText.map((text) => text.trim().slice(0, -1)),
	jsonObjectText.map((text) => `${text.trim().slice(0, -1)},}`),
	jsonObjectText.map((text) => text.replace('{', "{'")),
	fc
		.jsonValue({ maxDepth: 2 })
		.filter((value) => value === null || typeof value !== 'object' || Array.isArray(value))
		.map((value) => JSON.stringify(value)),
	fc.string({ maxLength: 30 }),
);

/** The package issue: a body is sent byte for byte (after trimming), or refused before any request. */
function expectedBody(text: string): string | undefined {
	try {
		const parsed: unknown = JSON.parse(text.trim());
		if (brokenCharacter(text)) return undefined;
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
			? text.trim()
			: undefined;
	} catch {
		return undefined;
	}
}

test('a JSON body is either sent byte for byte, or refused before any request', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.array(fc.oneof(jsonObjectText, brokenText), { minLength: 1, maxLength: 12 }),
			async (texts) => {
				await startOver(env);
				const run = await runFixture(env.engine, env.sandbox, 'sequence-create-json', {
					items: texts.map((body) => ({ body })),
					// Each property run is a new execution: the node's recent creates would skip a body an
					// earlier run created. This test is about the body alone.
					parameters: {
						jsonBody: '={{ $json.body }}',
						requestOptions: { repeatRecentCreates: true },
					},
					onError: 'continueRegularOutput',
				});
				expect(run.all).toHaveLength(texts.length);
				expect(run.all.map((item) => item.pairedItem)).toEqual(texts.map((_, item) => ({ item })));
				const expected = texts.map(expectedBody);
				expected.forEach((body, index) => {
					// Refused before it was sent (its words: test/unit/validation.test.mts).
					if (body === undefined) expect(run.all[index].json.message).toMatchObject(NEVER_SENT);
				});
				const requests = await env.sandbox.requests();
				expect(requests.map((request) => request.body).sort()).toEqual(
					expected.filter((body) => body !== undefined).sort(),
				);
				for (const request of requests)
					expect(request.headers['content-type']).toMatch(/^application\/json/);
			},
		),
		{ numRuns: RUNS },
	);
});

// ── schedule numbers ────────────────────────────────────────────────────────
const scheduleValue = fc.oneof(
	fc.integer({ min: -1000, max: 1000 }),
	fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)),
	fc.integer({ min: -1000, max: 1000 }).map((value) => ` ${value} `),
	fc.integer({ min: 0, max: 1000 }).map((value) => `+${value}`),
	fc.constantFrom(
		'NaN',
		'Infinity',
		'-Infinity',
		'1.5',
		'1e3',
		'0x10',
		'',
		'  ',
		'nine',
		'12abc',
		'99999999999999999999',
	),
	fc.string({ maxLength: 6 }),
);

/** The package issue: whole numbers, and text that spells one, are sent as numbers; everything else is refused. */
function expectedNumber(raw: unknown): number | undefined {
	if (typeof raw === 'number') return Number.isInteger(raw) ? raw : undefined;
	if (typeof raw === 'string' && /^\s*[+-]?\d+\s*$/.test(raw) && Number.isSafeInteger(Number(raw)))
		return Number(raw);
	return undefined;
}

test('schedule numbers: whole numbers and text that spells one are sent as numbers; anything else is refused', async () => {
	await fc.assert(
		fc.asyncProperty(fc.array(scheduleValue, { minLength: 1, maxLength: 12 }), async (values) => {
			await startOver(env);
			const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
				items: values.map((hour, index) => ({ name: `Hostile ${index}`, hour })),
				parameters: {
					// Runs repeat a create on purpose: the recent creates would skip it.
					requestOptions: { repeatRecentCreates: true },
					schedules: {
						schedule: [
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
				onError: 'continueRegularOutput',
			});
			expect(run.all).toHaveLength(values.length);
			const requests = await env.sandbox.requests();
			const sent = new Map(
				requests.map((request) => {
					const body = JSON.parse(request.body) as {
						name: string;
						schedules: Array<{ hour: unknown }>;
					};
					return [body.name, body.schedules[0].hour];
				}),
			);
			values.forEach((raw, index) => {
				const expected = expectedNumber(raw);
				if (expected === undefined) {
					expect(run.all[index].json.message).toMatchObject(NEVER_SENT);
					expect(sent.has(`Hostile ${index}`)).toBe(false);
				} else {
					expect(sent.get(`Hostile ${index}`)).toBe(expected);
				}
			});
		}),
		{ numRuns: RUNS },
	);
});

test('NaN and Infinity from an expression are refused, not sent', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
		items: [
			{ name: 'not a number', hour: 'NaN' },
			{ name: 'infinite', hour: 'Infinity' },
			{ name: 'fine', hour: '7' },
		],
		parameters: {
			schedules: {
				schedule: [
					{
						dayOffset: 0,
						hour: '={{ Number($json.hour) }}',
						minute: 0,
						delayInMinutes: 0,
						sequenceScripts: '',
					},
				],
			},
		},
		onError: 'continueRegularOutput',
	});
	expect(run.all[0].json.message).toMatchObject(NEVER_SENT);
	expect(run.all[1].json.message).toMatchObject(NEVER_SENT);
	expect(run.all[2].json.id).toEqual(expect.any(String));
	const requests = await env.sandbox.requests();
	expect(requests.map((request) => (JSON.parse(request.body) as { name: string }).name)).toEqual([
		'fine',
	]);
});
