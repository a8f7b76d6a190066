/** Pure checks of user input: each returns the value to send or a sentence for the user. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const problem = <T>(text: string): Checked<T> => ({ ok: false, problem: text });

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function describeValue(raw: unknown): string {
	if (raw === null) return 'null';
	if (Array.isArray(raw)) return 'a list';
	if (typeof raw === 'object') return 'an object';
	if (typeof raw === 'string') return `"${raw.length > 60 ? `${raw.slice(0, 60)}…` : raw}"`;
	return String(raw);
}

// A lone surrogate (a cut-off emoji) has no UTF-8 form: sent as U+FFFD, it would name something else.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const wellFormed = (text: string, label: string): Checked<string> =>
	!LONE_SURROGATE.test(text)
		? ok(text)
		: problem(
				`${label} contains a broken character (half of an emoji or other symbol, cut off), so it can't be sent as it is. Check the value mapped into ${label}.`,
			);

export function normalizeBaseUrl(raw: unknown): Checked<string> {
	const text = typeof raw === 'string' ? raw.trim() : '';
	const example =
		"Set it to the address of the service's API, for example https://api.example.com.";
	if (!text) return problem(`The credential's Base URL is empty. ${example}`);
	// Refused, not guessed: https could fail as a misleading TLS fault, http would send the key unencrypted.
	if (!/^[a-z][a-z\d+.-]*:\/\//i.test(text)) {
		const host = /^[\w.-]+(?::\d+)?(?:\/|$)/.test(text) ? text : 'api.example.com';
		return problem(
			`The credential's Base URL "${text}" has no http:// or https:// at the start. Add the one the service answers on: https://${host} or http://${host}.`,
		);
	}
	const url = URL.canParse(text) ? new URL(text) : undefined;
	if (url?.username || url?.password) {
		return problem(
			"The credential's Base URL must not contain a user name or password. Put the key in the credential's API Key field.",
		);
	}
	if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
		return problem(
			`The credential's Base URL "${text}" is not an http:// or https:// address without "?" or "#". ${example}`,
		);
	}
	// Every request path adds /v1 itself.
	return ok(`${url.origin}${url.pathname.replace(/(?:\/v1)?\/*$/, '')}`);
}

export function toIdentifier(raw: unknown, label: string): Checked<string> {
	if (typeof raw !== 'string' && !Number.isFinite(raw) && raw !== undefined && raw !== null)
		return problem(`${label} must be text, but it is ${describeValue(raw)}.`);
	const text = String(raw ?? '').trim();
	if (!text)
		return problem(
			`${label} is empty. Enter an identifier, or map one from the input, for example {{ $json.id }}.`,
		);
	// URL parsers resolve these as this and the parent folder, whatever the encoding: another route.
	if (text === '.' || text === '..')
		return problem(
			`${label} "${text}" can't be sent: "." and ".." are not identifiers a URL path can carry.`,
		);
	return wellFormed(text, label);
}

/** Empty is left out; a number is sent as text. */
export function toOptionalText(raw: unknown, label: string): Checked<string | undefined> {
	if (typeof raw === 'number' && Number.isFinite(raw)) return ok(String(raw));
	if (raw !== undefined && raw !== null && typeof raw !== 'string')
		return problem(`${label} must be text.`);
	return ok(raw?.trim() ? raw : undefined);
}

/** Empty is left out: the contract makes every schedule number optional. */
export function toWholeNumber(raw: unknown, label: string): Checked<number | undefined> {
	if (raw === undefined || raw === null || raw === '') return ok(undefined);
	const value = typeof raw === 'string' && /^\s*[+-]?\d+\s*$/.test(raw) ? Number(raw) : raw;
	return Number.isSafeInteger(value) || (typeof raw === 'number' && Number.isInteger(raw))
		? ok(value as number)
		: problem(`${label} must be a whole number, but it is ${describeValue(raw)}.`);
}

export function toScriptList(raw: unknown, label: string): Checked<string[]> {
	const entries = typeof raw === 'string' ? raw.split(',') : (raw ?? []);
	if (!Array.isArray(entries))
		return problem(
			`${label} must be comma-separated text or a list, but it is ${describeValue(raw)}.`,
		);
	const scripts: string[] = [];
	for (const [position, entry] of entries.entries()) {
		if (typeof entry === 'number' && Number.isFinite(entry)) scripts.push(String(entry));
		else if (typeof entry === 'string') scripts.push(entry.trim());
		else if (entry !== null && entry !== undefined)
			return problem(
				`${label}: entry ${position + 1} must be text, but it is ${describeValue(entry)}.`,
			);
	}
	return ok(scripts.filter((script) => script !== ''));
}

export function toJsonObjectText(raw: unknown, label: string): Checked<string> {
	if (isPlainObject(raw)) {
		try {
			return ok(JSON.stringify(raw));
		} catch (error) {
			return problem(`${label} can't be turned into JSON: ${(error as Error).message}`);
		}
	}
	if (typeof raw !== 'string')
		return problem(`${label} must be a JSON object, but it is ${describeValue(raw)}.`);
	const text = raw.trim();
	if (!text) return problem(`${label} is empty. Enter a JSON object; {} sends an empty sequence.`);
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		return problem(`${label} is not valid JSON: ${(error as Error).message}`);
	}
	if (!isPlainObject(parsed))
		return problem(
			`${label} must be a JSON object in braces { }, but it is ${describeValue(parsed)}.`,
		);
	return wellFormed(text, label);
}
