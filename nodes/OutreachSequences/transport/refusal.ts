/** n8n's refusal to send a request: an SSRF block, or its mark for an error no retry can fix. */

export type RefusalKind = 'blockedIp' | 'blockedHostname' | 'nonRetryable';

export interface Refusal {
	kind: RefusalKind;
	reason: string;
	advice?: string;
}

export const N8N_NON_RETRYABLE = Symbol.for('n8n.backend-network.non-retryable-error');

const REFUSAL_NAMES: Record<string, RefusalKind> = {
	SsrfBlockedIpError: 'blockedIp',
	SsrfBlockedHostnameError: 'blockedHostname',
};

type Level = Record<PropertyKey, unknown>;

/** The error and the causes it wraps, outermost first, each once (n8n wraps the HTTP library's error). */
export function causesOf(error: unknown): Level[] {
	const levels: Level[] = [];
	for (
		let level = error;
		typeof level === 'object' && level !== null;
		level = (level as Level).cause
	) {
		if (levels.includes(level as Level) || levels.length === 8) break;
		levels.push(level as Level);
	}
	return levels;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Told by the error's name or n8n's mark, never by a missing network code: SSRF errors have none. */
export function refusalOf(error: unknown): Refusal | undefined {
	for (const level of causesOf(error)) {
		const named = typeof level.name === 'string' ? REFUSAL_NAMES[level.name] : undefined;
		const kind = named ?? (level[N8N_NON_RETRYABLE] === true ? 'nonRetryable' : undefined);
		const reason = text(level.message);
		if (kind !== undefined && reason !== undefined) {
			const advice = text(level.description);
			return advice === undefined ? { kind, reason } : { kind, reason, advice };
		}
	}
	return undefined;
}
