/**
 * A refusal: n8n would not send a request, so nothing went out. n8n 2.x
 * refuses where its SSRF protection says (N8N_SSRF_PROTECTION_ENABLED and
 * its ranges and host names): its HTTP helper throws a NodeApiError whose
 * cause is an SsrfBlockedIpError or SsrfBlockedHostnameError, marked with
 * n8n's symbol for an error that no retry can fix. Those have no network
 * code; a refusal is told by that name or that mark, never by a missing code.
 */

/** Which of n8n's refusals: an address or a host name its SSRF protection blocks, or another error n8n marked as never worth a retry. */
export type RefusalKind = 'blockedIp' | 'blockedHostname' | 'nonRetryable';

export interface Refusal {
	kind: RefusalKind;
	/** n8n's reason, its error's message. */
	reason: string;
	/** What n8n says an administrator can do, its error's description. */
	advice?: string;
}

/** The mark n8n (@n8n/backend-network) puts on an error that no retry can fix. */
export const N8N_NON_RETRYABLE = Symbol.for('n8n.backend-network.non-retryable-error');

/** The names n8n gives its SSRF protection's errors. */
const REFUSAL_NAMES: Record<string, RefusalKind> = {
	SsrfBlockedIpError: 'blockedIp',
	SsrfBlockedHostnameError: 'blockedHostname',
};

/** How deep a cause chain is followed: n8n nests an error two or three levels down. */
const MAX_DEPTH = 8;

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** n8n's refusal in an error it threw, wherever in the cause chain; undefined for any other error. */
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
