/** A JSON answer as lines for a failure's description; no error shape is assumed (the contract shows none). */
import { isPlainObject } from '../../helpers/validation';

const MESSAGE_KEYS = ['message', 'error', 'detail'];
const MAX_LINES = 20;
const MAX_LINE = 200;

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

function cut(line: string): string {
	return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
}

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

// n8n's error box renders a description as HTML (its sanitizer keeps <br>); the newline is for plain text.
export function asLines(lines: string[]): string {
	return lines.join('<br>\n');
}

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
