/** What a user reads when n8n refused to send an item's request (transport/refusal.ts). */
import type { Refusal, RefusalKind } from '../../transport/refusal';

const ADMINISTRATOR_CAN: Record<RefusalKind, string> = {
	blockedIp:
		"An n8n administrator can allow the service's address with N8N_SSRF_ALLOWED_IP_RANGES or its host name with N8N_SSRF_ALLOWED_HOSTNAMES",
	blockedHostname:
		'An n8n administrator can take its host name off N8N_SSRF_BLOCKED_HOSTNAMES, or add it to N8N_SSRF_ALLOWED_HOSTNAMES',
	nonRetryable: "An n8n administrator can tell which of n8n's settings stops it",
};

const reasonOf = (refusal: Refusal) => refusal.reason.trim().replace(/\.$/, '');

export function refusalText(
	refusal: Refusal,
	attempt: string,
	baseUrl: string,
): { message: string; description: string } {
	return {
		message: `n8n refused to send the request ${attempt}: ${reasonOf(refusal)}. Nothing reached the outreach service. ${ADMINISTRATOR_CAN[refusal.kind]}; then send the item again.`,
		description: `${refusal.advice ? `${refusal.advice} ` : ''}Base URL: ${baseUrl}.`,
	};
}
