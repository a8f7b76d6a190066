// A 400's validation details as short lines in the error's description: the
// answer's top-level texts, and its lists of texts or of objects with a
// message-like field, with no error body shape assumed (the contract shows
// none); the raw body still follows.
import { answerLines } from '../../nodes/OutreachSequences/run/outcome/answerLines.ts';
import { describeFailure } from '../../nodes/OutreachSequences/run/outcome/texts.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';

const sequence = { noun: 'sequence', verb: 'create', done: 'created' };

function descriptionOf(status: number, body: unknown): string {
	const attempt = attemptOf(
		{ statusCode: status, body, headers: { 'content-type': 'application/json' } },
		0,
		'POST',
	);
	if (attempt.ok) throw new Error('a success');
	return describeFailure(attempt.failure, {
		subject: sequence,
		baseUrl: 'https://api.example.com',
		timeoutMs: 1000,
		credentialName: 'Outreach',
	}).description;
}

describe('the lines of an answer', () => {
	test('top-level texts, and the entries of lists: texts, and objects with a message-like field and their other plain fields', () => {
		expect(
			answerLines({
				message: 'Validation failed',
				code: 400,
				errors: [
					{ field: 'name', message: 'is required' },
					{ path: ['schedules', 0, 'hour'], detail: 'must be a whole number', code: 'type' },
					{ nothing: 'to say' },
				],
				warnings: ['timezone is not known', '', 7],
			}),
		).toEqual([
			'message: Validation failed',
			'errors: is required (field: name)',
			'errors: must be a whole number (code: type)',
			'warnings: timezone is not known',
		]);
	});

	test('nothing is guessed of other shapes: nested objects and texts that are not JSON give no lines', () => {
		expect(answerLines({ errors: { name: ['is required'] } })).toEqual([]);
		expect(answerLines('name is required')).toEqual([]);
		expect(answerLines([{ message: 'a list as the body' }])).toEqual([]);
		expect(answerLines(null)).toEqual([]);
	});

	test('at most 20 lines of at most 200 characters', () => {
		const lines = answerLines({ errors: Array.from({ length: 25 }, () => 'x'.repeat(300)) });
		expect(lines).toHaveLength(21);
		expect(lines[0]).toBe(`errors: ${'x'.repeat(192)}…`);
		expect(lines[20]).toBe('… and 5 more');
	});
});

describe("a failure's description", () => {
	test("a 400 with validation details: the lines, then the raw body, each ending with a line break as HTML (n8n's error box) and as text", () => {
		const body = {
			message: 'Validation failed',
			errors: [{ field: 'name', message: 'is required' }],
		};
		expect(descriptionOf(400, body).split('<br>\n')).toEqual([
			'The service answered HTTP 400 (application/json) with these messages:',
			'- message: Validation failed',
			'- errors: is required (field: name)',
			`Its whole answer: ${JSON.stringify(body)}`,
		]);
	});

	test('an answer with one text field is quoted as before, on one line: the message already says it', () => {
		expect(descriptionOf(404, { message: 'Resource not found' })).toBe(
			'The service answered HTTP 404 (application/json): {"message":"Resource not found"}',
		);
	});
});
