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

const MAX_DEPTH = 8;

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Told by the error's name or n8n's mark, never by a missing network code: SSRF errors have none. */
export function refusalOf(error: unknown): Refusal | undefined {
	const seen = new Set<unknown>();
	let current = error;
	for (let depth = 0; depth < MAX_DEPTH; depth++) {
		if (typeof current !== 'object' || current === null || seen.has(current)) return undefined;
		seen.add(current);
		const level = current as {
			name?: unknown;
			message?: unknown;
			description?: unknown;
			cause?: unknown;
			[N8N_NON_RETRYABLE]?: unknown;
		};
		const named = typeof level.name === 'string' ? REFUSAL_NAMES[level.name] : undefined;
		const kind = named ?? (level[N8N_NON_RETRYABLE] === true ? 'nonRetryable' : undefined);
		const reason = text(level.message);
		if (kind !== undefined && reason !== undefined) {
			const advice = text(level.description);
			return advice === undefined ? { kind, reason } : { kind, reason, advice };
		}
		current = level.cause;
	}
	return undefined;
}
