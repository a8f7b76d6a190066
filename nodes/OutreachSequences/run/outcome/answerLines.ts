/**
 * What a service's JSON answer says to a person, line by line, for the
 * description of a failure (texts.ts). The contract shows no error body, so
 * no shape is assumed: the lines are the answer's top-level text fields, and
 * the entries of its top-level lists that are texts, or objects with a text
 * field named as a message is (message, error, detail), with their other text
 * and number fields after it. Everything else stays in the raw body, which the
 * description quotes after the lines.
 */
import { isPlainObject } from '../../helpers/validation';

const MESSAGE_KEYS = ['message', 'error', 'detail'];
const MAX_LINES = 20;
const MAX_LINE = 200;

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

function cut(line: string): string {
	return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
}

/** A list's entry as a line: a text, or an object's message-like text with its other plain fields. */
function entryLine(entry: unknown): string | undefined {
	if (!isPlainObject(entry)) return text(entry);
	const key = MESSAGE_KEYS.find((name) => text(entry[name]) !== undefined);
	if (key === undefined) return undefined;
	const others = Object.entries(entry)
		.filter(
			([name, value]) =>
				name !== key &&
				(text(value) ?? (typeof value === 'number' ? value : undefined)) !== undefined,
		)
		.map(([name, value]) => `${name}: ${text(value) ?? String(value)}`);
	const said = text(entry[key]) as string;
	return others.length > 0 ? `${said} (${others.join(', ')})` : said;
}

/**
 * Lines of a description, one under the other where it is read: n8n's error
 * box renders a description as HTML (its sanitizer keeps <br>), where a
 * newline alone is a space; the newline keeps them apart where it is read as
 * text (n8n's CLI, the execution's data).
 */
export function asLines(lines: string[]): string {
	return lines.join('<br>\n');
}

/** The answer's lines, each "<field>: <text>"; none when the body is not a JSON object or says nothing a line can hold. */
export function answerLines(body: unknown): string[] {
	if (!isPlainObject(body)) return [];
	const lines = Object.entries(body).flatMap(([name, value]) => {
		const said = text(value);
		if (said !== undefined) return [`${name}: ${said}`];
		if (!Array.isArray(value)) return [];
		return value
			.map(entryLine)
			.filter((line): line is string => line !== undefined)
			.map((line) => `${name}: ${line}`);
	});
	const shown = lines.slice(0, MAX_LINES).map(cut);
	if (lines.length > MAX_LINES) shown.push(`… and ${lines.length - MAX_LINES} more`);
	return shown;
}
