import {
	encodePathSegment,
	normalizeBaseUrl,
	toIdentifier,
	toJsonObjectText,
	toScriptList,
	toWholeNumber,
} from '../../nodes/OutreachSequences/helpers/validation.ts';
import { scheduleEntry } from '../../nodes/OutreachSequences/actions/sequence/schedules.ts';

describe('normalizeBaseUrl', () => {
	test.each([
		['https://api.example.com', 'https://api.example.com'],
		['  https://api.example.com/  ', 'https://api.example.com'],
		['https://api.example.com///', 'https://api.example.com'],
		['https://api.example.com/v1', 'https://api.example.com'],
		['https://api.example.com/v1/', 'https://api.example.com'],
		['https://api.example.com/outreach/v1', 'https://api.example.com/outreach'],
		['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
		['HTTPS://API.Example.com/Base', 'https://api.example.com/Base'],
		['https://api.example.com/v10', 'https://api.example.com/v10'],
	])('%j becomes %j', (raw, expected) => {
		expect(normalizeBaseUrl(raw)).toEqual({ ok: true, value: expected });
	});

	test.each([
		['', "The credential's Base URL is empty."],
		[undefined, "The credential's Base URL is empty."],
		[
			'api.example.com',
			'The credential\'s Base URL "api.example.com" has no http:// or https:// at the start. Add the one the service answers on: https://api.example.com or http://api.example.com.',
		],
		[
			'localhost:4010',
			'Add the one the service answers on: https://localhost:4010 or http://localhost:4010.',
		],
		['ftp://api.example.com', 'must start with http:// or https://'],
		[
			'javascript:alert(1)',
			'Add the one the service answers on: https://api.example.com or http://api.example.com.',
		],
		['https://exa mple.com', 'is not a URL'],
		['https://user:pw@api.example.com', 'must not contain a user name or password'],
		['https://api.example.com/?x=1', 'must not contain "?" or "#"'],
	])('%j is refused with a message naming the Base URL', (raw, expected) => {
		const checked = normalizeBaseUrl(raw);
		expect(checked.ok).toBe(false);
		expect(checked.ok ? '' : checked.problem).toContain(expected);
	});
});

describe('toIdentifier', () => {
	test.each([
		['c-42', 'c-42'],
		['  c-42\n', 'c-42'],
		[42, '42'],
		[0, '0'],
		['a/b', 'a/b'],
		['...', '...'],
	])('%j is sent as %j', (raw, expected) => {
		expect(toIdentifier(raw, 'Contact ID')).toEqual({ ok: true, value: expected });
	});

	test.each([
		['', 'Contact ID is empty.'],
		['   ', 'Contact ID is empty.'],
		[null, 'Contact ID is empty.'],
		[undefined, 'Contact ID is empty.'],
		[Number.NaN, 'Contact ID must be text, but it is NaN.'],
		[{ id: 1 }, 'Contact ID must be text, but it is an object.'],
		[['x'], 'Contact ID must be text, but it is a list.'],
		[true, 'Contact ID must be text, but it is true.'],
		['.', 'Contact ID "." can\'t be sent'],
		[' .. ', 'Contact ID ".." can\'t be sent'],
	])('%j is refused', (raw, expected) => {
		const checked = toIdentifier(raw, 'Contact ID');
		expect(checked.ok ? '' : checked.problem).toContain(expected);
	});
});

test('encodePathSegment leaves no character that ends or leaves a segment', () => {
	expect(encodePathSegment('a/b?c#d')).toBe('a%2Fb%3Fc%23d');
	expect(encodePathSegment('100% ü ✓')).toBe('100%25%20%C3%BC%20%E2%9C%93');
	expect(encodePathSegment('a\\b')).toBe('a%5Cb');
	expect(decodeURIComponent(encodePathSegment('x/../y'))).toBe('x/../y');
});

describe('toWholeNumber', () => {
	test.each([
		[0, 0],
		[-3, -3],
		[1440, 1440],
		['7', 7],
		[' +7 ', 7],
		['-2', -2],
	])('%j is %j', (raw, expected) => {
		expect(toWholeNumber(raw)).toEqual({ ok: true, value: expected });
	});

	test.each([
		[2.5, 'must be a whole number, but it is 2.5'],
		[Number.NaN, 'must be a whole number, but it is NaN'],
		[Number.POSITIVE_INFINITY, 'must be a whole number, but it is Infinity'],
		['7.5', 'must be a whole number, but it is "7.5"'],
		['1e3', 'must be a whole number, but it is "1e3"'],
		['99999999999999999999', 'must be a whole number'],
		['', 'is empty'],
		[null, 'is empty'],
		[true, 'must be a whole number, but it is true'],
	])('%j is refused', (raw, expected) => {
		const checked = toWholeNumber(raw);
		expect(checked.ok).toBe(false);
		expect(checked.ok ? '' : checked.problem).toContain(expected);
	});
});

describe('toScriptList', () => {
	test.each([
		['phone-1', ['phone-1']],
		[' phone-1 , ,txt-1,', ['phone-1', 'txt-1']],
		['', []],
		[undefined, []],
		[
			['a', ' b ', '', 3, null],
			['a', 'b', '3'],
		],
	])('%j is %j', (raw, expected) => {
		expect(toScriptList(raw)).toEqual({ ok: true, value: expected });
	});

	test.each([
		[{ a: 1 }, 'must be comma-separated text or a list, but it is an object'],
		[['a', { b: 1 }], 'entry 2 must be text, but it is an object'],
	])('%j is refused', (raw, expected) => {
		const checked = toScriptList(raw);
		expect(checked.ok ? '' : checked.problem).toBe(expected);
	});
});

test('an identifier or a JSON body with half an emoji is refused, a whole emoji is kept', () => {
	const cutOff = '😀'.slice(0, 1);
	const expected =
		"contains a broken character (half of an emoji or other symbol, cut off), so it can't be sent as it is.";
	expect(toIdentifier(`c-${cutOff}`, 'Contact ID')).toEqual({
		ok: false,
		problem: `Contact ID ${expected} Check the value mapped into Contact ID.`,
	});
	expect(toIdentifier('c-😀', 'Contact ID')).toEqual({ ok: true, value: 'c-😀' });
	expect(toJsonObjectText(`{"name": "${cutOff}"}`, 'JSON Body')).toEqual({
		ok: false,
		problem: `JSON Body ${expected} Check the value mapped into JSON Body.`,
	});
	expect(toJsonObjectText('{"name": "\\ud800"}', 'JSON Body')).toEqual({
		ok: true,
		value: '{"name": "\\ud800"}',
	});
});

describe('toJsonObjectText', () => {
	test('JSON text is kept exactly, after trimming', () => {
		const text = '{ "name" : null,\n "n": 12345678901234567890 }';
		expect(toJsonObjectText(`\n${text}  `, 'JSON Body')).toEqual({ ok: true, value: text });
	});

	test('an object is serialized', () => {
		expect(toJsonObjectText({ a: null, b: [1] }, 'JSON Body')).toEqual({
			ok: true,
			value: '{"a":null,"b":[1]}',
		});
	});

	test.each([
		['{', 'JSON Body is not valid JSON'],
		['[]', 'must be a JSON object in braces { }, but it is a list'],
		['"text"', 'must be a JSON object in braces { }, but it is "text"'],
		['', 'JSON Body is empty'],
		[42, 'JSON Body must be a JSON object, but it is 42.'],
		[[1], 'JSON Body must be a JSON object, but it is a list.'],
	])('%j is refused', (raw, expected) => {
		const checked = toJsonObjectText(raw, 'JSON Body');
		expect(checked.ok ? '' : checked.problem).toContain(expected);
	});

	test('an object that cannot be serialized is refused', () => {
		const circular: Record<string, unknown> = {};
		circular.self = circular;
		const checked = toJsonObjectText(circular, 'JSON Body');
		expect(checked.ok ? '' : checked.problem).toMatch(/^JSON Body can't be turned into JSON/);
	});
});

describe('the sentences a refused field gives, whole', () => {
	test('an empty identifier: what to enter', () => {
		expect(toIdentifier('', 'Contact ID')).toEqual({
			ok: false,
			problem:
				'Contact ID is empty. Enter an identifier, or map one from the input, for example {{ $json.id }}.',
		});
	});

	test('a schedule row names its step and field (actions/sequence/schedules.ts)', () => {
		const fail = (message: string): never => {
			throw new Error(message);
		};
		const row = (hour: unknown) => ({ dayOffset: 0, hour, minute: 0, delayInMinutes: 0 });
		expect(() => scheduleEntry(row('nine'), 0, fail)).toThrow(
			new Error('Schedule 1: Hour must be a whole number, but it is "nine".'),
		);
		expect(() => scheduleEntry(row(''), 1, fail)).toThrow(
			new Error('Schedule 2: Hour is empty; enter a whole number.'),
		);
		expect(() => scheduleEntry({ ...row(9), sequenceScripts: 7 }, 0, fail)).toThrow(
			new Error(
				'Schedule 1: Sequence Scripts must be comma-separated text or a list, but it is 7.',
			),
		);
	});

	test('JSON Body that is not JSON quotes the parser', () => {
		expect(toJsonObjectText('{"name": "x",}', 'JSON Body')).toEqual({
			ok: false,
			problem: expect.stringMatching(/^JSON Body is not valid JSON: \S/),
		});
		expect(toJsonObjectText('null', 'JSON Body')).toEqual({
			ok: false,
			problem: 'JSON Body must be a JSON object in braces { }, but it is null.',
		});
	});
});
