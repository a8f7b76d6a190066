/**
 * What a service's standard rate-limit headers say of its quota: how many
 * requests are left, and how long until it refills. The contract shows no such
 * headers; when a service sends them, the node slows down before a 429
 * instead of after one. Without them, nothing changes.
 *
 * Read, in this order:
 * - the IETF draft's `RateLimit` field (draft-ietf-httpapi-ratelimit-headers):
 *   `"default";r=0;t=5` (r remaining, t seconds), or the older
 *   `limit=10, remaining=0, reset=5`; with several policies, the one with
 *   the fewest left;
 * - the older drafts' `RateLimit-Remaining` and `RateLimit-Reset`;
 * - the common `X-RateLimit-Remaining` and `X-RateLimit-Reset`, whose reset
 *   is seconds to wait, or a Unix time in seconds or milliseconds.
 */
/** Response headers, whatever their case; a value may be a list. */
type Headers = Record<string, unknown>;

export interface Quota {
	/** Requests left now. */
	remaining: number;
	/** How long until the quota refills, in ms. */
	resetMs: number;
}

/** A rate-limit header's value, by its lower-case name; several values joined as one list. */
function field(fields: Map<string, unknown>, name: string): string | undefined {
	const value = fields.get(name);
	if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

const number = (text: string | undefined) =>
	text !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : undefined;

/** The parameters of one list item: `"name";r=1;t=2` or `remaining=1` (a dictionary member). */
function parameters(item: string): Record<string, string> {
	const found: Record<string, string> = {};
	for (const part of item.split(';')) {
		const match = /^\s*([a-z][a-z0-9_-]*)\s*=\s*"?([^";]*)"?\s*$/i.exec(part);
		if (match) found[match[1].toLowerCase()] = match[2];
	}
	return found;
}

/** The IETF `RateLimit` field: the policy with the fewest requests left. */
function fromRateLimitField(value: string): Quota | undefined {
	// The older form is one dictionary: limit=10, remaining=0, reset=5.
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

/** X-RateLimit-Reset: seconds to wait, or a Unix time in seconds or in milliseconds. */
function resetOf(value: number, nowMs: number): number {
	if (value > 1e12) return Math.max(0, value - nowMs);
	if (value > 1e9) return Math.max(0, value * 1000 - nowMs);
	return value * 1000;
}

export function quotaOf(headers: Headers, nowMs: number): Quota | undefined {
	// One pass over the answer's headers: the rate-limit ones by lower-case name, the first of each.
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
