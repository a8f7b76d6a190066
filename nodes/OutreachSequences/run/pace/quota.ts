/** Reads a service's quota (requests left, time to refill) from its standard rate-limit headers. */

type Headers = Record<string, unknown>;

export interface Quota {
	remaining: number;
	resetMs: number;
}

function field(fields: Map<string, unknown>, name: string): string | undefined {
	const value = fields.get(name);
	if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

const number = (text: string | undefined) =>
	text !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : undefined;

function parameters(item: string): Record<string, string> {
	const found: Record<string, string> = {};
	for (const part of item.split(';')) {
		const match = /^\s*([a-z][a-z0-9_-]*)\s*=\s*"?([^";]*)"?\s*$/i.exec(part);
		if (match) found[match[1].toLowerCase()] = match[2];
	}
	return found;
}

function fromRateLimitField(value: string): Quota | undefined {
	// The IETF draft's older form is one dictionary: limit=10, remaining=0, reset=5.
	if (/\bremaining\s*=/.test(value)) {
		const all = Object.assign({}, ...value.split(',').map(parameters)) as Record<string, string>;
		const remaining = number(all.remaining);
		const reset = number(all.reset);
		return remaining === undefined || reset === undefined
			? undefined
			: { remaining, resetMs: reset * 1000 };
	}
	let fewest: Quota | undefined;
	for (const item of value.split(',')) {
		const { r, t } = parameters(item);
		const remaining = number(r);
		const reset = number(t);
		if (remaining === undefined || reset === undefined) continue;
		if (!fewest || remaining < fewest.remaining) fewest = { remaining, resetMs: reset * 1000 };
	}
	return fewest;
}

/** X-RateLimit-Reset is, depending on the service, seconds to wait or a Unix time in seconds or ms. */
function resetOf(value: number, nowMs: number): number {
	if (value > 1e12) return Math.max(0, value - nowMs);
	if (value > 1e9) return Math.max(0, value * 1000 - nowMs);
	return value * 1000;
}

export function quotaOf(headers: Headers, nowMs: number): Quota | undefined {
	const fields = new Map<string, unknown>();
	for (const key of Object.keys(headers)) {
		const name = key.toLowerCase();
		if (name.includes('ratelimit') && !fields.has(name)) fields.set(name, headers[key]);
	}
	if (fields.size === 0) return undefined;
	const ietf = field(fields, 'ratelimit');
	const fromIetf = ietf === undefined ? undefined : fromRateLimitField(ietf);
	if (fromIetf) return fromIetf;
	for (const prefix of ['ratelimit-', 'x-ratelimit-']) {
		const remaining = number(field(fields, `${prefix}remaining`));
		const reset = number(field(fields, `${prefix}reset`));
		if (remaining !== undefined && reset !== undefined) {
			return { remaining, resetMs: prefix === 'ratelimit-' ? reset * 1000 : resetOf(reset, nowMs) };
		}
	}
	return undefined;
}
