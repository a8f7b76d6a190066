/**
 * The API key kept out of every text a user reads: a failed item's error
 * (run/n8n/itemError.ts) and the credential test's message.
 */

/** Replace every occurrence of the API key, so no error text can carry it. */
export function redact(text: string, secret: unknown): string {
	if (typeof secret !== 'string' || secret.length < 4) return text;
	return text.split(secret).join('[API key]');
}
