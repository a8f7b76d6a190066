// Input checks (helpers/validation.ts) and the requests the operations build
// with them: each value as sent, or the sentence that fails its item unsent.
import fc from 'fast-check';
import type { INode } from 'n8n-workflow';

import type { ItemReader, Operation } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import {
	normalizeBaseUrl,
	toIdentifier,
	toJsonObjectText,
	toScriptList,
	toWholeNumber,
} from '../../nodes/OutreachSequences/helpers/validation.ts';
import { operations } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';

const sent = (value: unknown) => ({ ok: true, value });
const refused = (problem: string) => ({ ok: false, problem });
const HALF_EMOJI = '😀'.slice(0, 1);
const BROKEN = (label: string) =>
	`${label} contains a broken character (half of an emoji or other symbol, cut off), so it can't be sent as it is. Check the value mapped into ${label}.`;
const EXAMPLE = "Set it to the address of the service's API, for example https://api.example.com.";
const NO_SCHEME = (raw: string, host: string) =>
	`The credential's Base URL "${raw}" has no http:// or https:// at the start. Add the one the service answers on: https://${host} or http://${host}.`;
const NOT_HTTP = (raw: string) =>
	`The credential's Base URL "${raw}" is not an http:// or https:// address without "?" or "#". ${EXAMPLE}`;
const EMPTY_ID =
	'Contact ID is empty. Enter an identifier, or map one from the input, for example {{ $json.id }}.';

test.each([
	[' https://api.example.com/v1/ ', sent('https://api.example.com')],
	['HTTPS://API.Example.com/Base///', sent('https://api.example.com/Base')],
	['http://127.0.0.1:4010/outreach/v10', sent('http://127.0.0.1:4010/outreach/v10')],
	[undefined, refused(`The credential's Base URL is empty. ${EXAMPLE}`)],
	['localhost:4010', refused(NO_SCHEME('localhost:4010', 'localhost:4010'))],
	['javascript:alert(1)', refused(NO_SCHEME('javascript:alert(1)', 'api.example.com'))],
	['ftp://api.example.com', refused(NOT_HTTP('ftp://api.example.com'))],
	['https://exa mple.com', refused(NOT_HTTP('https://exa mple.com'))],
	['https://api.example.com/?x=1', refused(NOT_HTTP('https://api.example.com/?x=1'))],
	[
		'https://user:pw@api.example.com',
		refused(
			"The credential's Base URL must not contain a user name or password. Put the key in the credential's API Key field.",
		),
	],
])('Base URL %j: %j', (raw, checked) => {
	expect(normalizeBaseUrl(raw)).toEqual(checked);
});

test.each([
	[null, refused(EMPTY_ID)],
	[Number.NaN, refused('Contact ID must be text, but it is NaN.')],
	[['x'], refused('Contact ID must be text, but it is a list.')],
	[
		' .. ',
		refused(
			'Contact ID ".." can\'t be sent: "." and ".." are not identifiers a URL path can carry.',
		),
	],
	[`c-${HALF_EMOJI}`, refused(BROKEN('Contact ID'))],
])('identifier %j: %j', (raw, checked) => {
	expect(toIdentifier(raw, 'Contact ID')).toEqual(checked);
});

test.each([
	[2.5, refused('Hour must be a whole number, but it is 2.5.')],
	['1e3', refused('Hour must be a whole number, but it is "1e3".')],
	[
		'99999999999999999999',
		refused('Hour must be a whole number, but it is "99999999999999999999".'),
	],
	['', sent(undefined)],
])('whole number %j: %j', (raw, checked) => {
	expect(toWholeNumber(raw, 'Hour')).toEqual(checked);
});

test.each([
	[' phone-1 , ,txt-1,', sent(['phone-1', 'txt-1'])],
	[['a', ' b ', '', 3, null], sent(['a', 'b', '3'])],
	[{ a: 1 }, refused('Scripts must be comma-separated text or a list, but it is an object.')],
	[['a', { b: 1 }], refused('Scripts: entry 2 must be text, but it is an object.')],
])('scripts %j: %j', (raw, checked) => {
	expect(toScriptList(raw, 'Scripts')).toEqual(checked);
});

const circular: Record<string, unknown> = {};
circular.self = circular;
test.each([
	[{ a: null, b: [1] }, sent('{"a":null,"b":[1]}')],
	['null', refused('JSON Body must be a JSON object in braces { }, but it is null.')],
	['  ', refused('JSON Body is empty. Enter a JSON object; {} sends an empty sequence.')],
	[42, refused('JSON Body must be a JSON object, but it is 42.')],
	[`{"name": "${HALF_EMOJI}"}`, refused(BROKEN('JSON Body'))],
	['{"a",}', refused(expect.stringMatching(/^JSON Body is not valid JSON: \S/) as never)],
	[circular, refused(expect.stringMatching(/^JSON Body can't be turned into JSON: \S/) as never)],
])('JSON Body %j: %j', (raw, checked) => {
	expect(toJsonObjectText(raw, 'JSON Body')).toEqual(checked);
});

// What users, spreadsheets and webhooks hand the node (fast-check).
const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 200) };
const lone = (text: string) => !text.isWellFormed();
test('any identifier is sent trimmed, as one path segment that decodes back to it, or refused', () => {
	const tricky = fc.constantFrom(...'/ . .. %2F ? # \\ @x e\u0301 \ud800'.split(' '), ' ');
	const raw = fc.oneof(
		fc.string({ unit: 'binary' }),
		fc
			.array(fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 3 })))
			.map((parts) => parts.join('')),
		fc.double(),
	);
	fc.assert(
		fc.property(raw, (value) => {
			const text = String(value).trim();
			const refuse =
				['', '.', '..'].includes(text) ||
				lone(text) ||
				!(typeof value === 'string' || Number.isFinite(value));
			const request = buildWith('useCase', 'get', { useCaseId: value });
			if (refuse) expect(request).toBeUndefined();
			else {
				const segment = request!.path.slice('/v1/use_cases/'.length);
				expect([/[/?#]/.test(segment), decodeURIComponent(segment)]).toEqual([false, text]);
			}
		}),
		RUNS,
	);
});

// ── the requests built from an item's parameters ───────────────────────────
const reader = (parameters: Record<string, unknown>): ItemReader => ({
	node: { name: 'Outreach Sequences' } as INode,
	parameter: (name, _, fallback) => parameters[name] ?? fallback,
	perRun: (name, _, fallback, derive) => derive(parameters[name] ?? fallback),
});
const find = (resource: string, operation: string): Operation =>
	operations.find((entry) => entry.resource === resource && entry.operation === operation)!;
/** The request, or undefined where the item fails unsent. */
function buildWith(resource: string, operation: string, parameters: Record<string, unknown>) {
	try {
		return find(resource, operation).buildRequest(reader(parameters), 0);
	} catch {
		return undefined;
	}
}
const create = (parameters: Record<string, unknown>) =>
	find('sequence', 'create').buildRequest(reader(parameters), 0);
const row = (hour: unknown, sequenceScripts: unknown = '') => ({
	dayOffset: 0,
	hour,
	minute: 0,
	delayInMinutes: 0,
	sequenceScripts,
});

test('Sequence › Create sends the fields set, in order, and leaves out the blank ones', () => {
	const request = create({
		name: 'Spring',
		additionalFields: { description: '', criteria: 'status == "lead"', timezone: 7 },
		schedules: { schedule: [row('9', ['phone-1', ' ']), row(10)] },
	});
	expect(request).toMatchObject({
		method: 'POST',
		path: '/v1/sequences',
		subject: { name: 'Spring' },
	});
	expect(JSON.parse(request.body!)).toEqual({
		name: 'Spring',
		criteria: 'status == "lead"',
		timezone: '7',
		schedules: [
			{ dayOffset: 0, hour: 9, minute: 0, delayInMinutes: 0, sequenceScripts: ['phone-1'] },
			{ dayOffset: 0, hour: 10, minute: 0, delayInMinutes: 0 },
		],
	});
	expect(Object.keys(JSON.parse(request.body!))).toEqual([
		'name',
		'criteria',
		'timezone',
		'schedules',
	]);
	expect(create({ name: '  ' }).body).toBe('{}');
});

test.each([
	[[row(1), row('nine')], 'Schedule 2: Hour must be a whole number, but it is "nine".'],
	[
		[row(9, 7)],
		'Schedule 1: Sequence Scripts must be comma-separated text or a list, but it is 7.',
	],
])('Sequence › Create with schedules %j fails its item: %s', (schedule, message) => {
	expect(() => create({ schedules: { schedule } })).toThrow(message);
});

test('Sequence › Create with a field that is not text fails its item, naming it', () => {
	expect(() => create({ additionalFields: { timezone: {} } })).toThrow('Timezone must be text.');
});
