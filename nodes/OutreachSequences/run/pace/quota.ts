/** Reads a service's quota (requests left, time to refill) from its standard rate-limit headers. */

export interface Quota {
	remaining: number;
	resetMs: number;
}

const number = (text: string | undefined) =>
	text !== undefined && /^\s*"?\d+(\.\d+)?"?\s*$/.test(text)
		? Number(text.replace(/"/g, ''))
		: undefined;

/** `name=value` among the `;`-separated parameters of one item. */
function parameter(item: string, name: string): number | undefined {
	for (const part of item.split(';')) {
		const [key, value] = part.split('=');
		if (key.trim().toLowerCase() === name) return number(value);
	}
	return undefined;
}

/** X-RateLimit-Reset is, depending on the service, seconds to wait or a Unix time in seconds or ms. */
function resetOf(value: number, nowMs: number): number {
	if (value > 1e12) return Math.max(0, value - nowMs);
	if (value > 1e9) return Math.max(0, value * 1000 - nowMs);
	return value * 1000;
}

export function quotaOf(headers: Record<string, unknown>, nowMs: number): Quota | undefined {
	const fields = new Map<string, string>();
	for (const [key, value] of Object.entries(headers))
		if (value !== undefined && value !== null && !fields.has(key.toLowerCase()))
			fields.set(key.toLowerCase(), [value].flat().map(String).join(', '));
	// The IETF draft names one item per policy ("daily";r=2;t=3600); its older form is one dictionary.
	const ietf = fields.get('ratelimit') ?? '';
	const items = /\bremaining\s*=/.test(ietf)
		? [
				ietf
					.replace(/,/g, ';')
					.replace(/\bremaining\b/, 'r')
					.replace(/\breset\b/, 't'),
			]
		: ietf.split(',');
	let fewest: Quota | undefined;
	for (const item of items) {
		const remaining = parameter(item, 'r');
		const reset = parameter(item, 't');
		if (remaining === undefined || reset === undefined) continue;
		if (!fewest || remaining < fewest.remaining) fewest = { remaining, resetMs: reset * 1000 };
	}
	if (fewest) return fewest;
	for (const prefix of ['ratelimit-', 'x-ratelimit-']) {
		const remaining = number(fields.get(`${prefix}remaining`));
		const reset = number(fields.get(`${prefix}reset`));
		if (remaining !== undefined && reset !== undefined)
			return { remaining, resetMs: prefix === 'ratelimit-' ? reset * 1000 : resetOf(reset, nowMs) };
	}
	return undefined;
}
