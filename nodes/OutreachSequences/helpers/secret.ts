/** Keeps the API key out of every text a user reads: a failed item's error and the credential test's message. */

export function redact(text: string, secret: unknown): string {
	if (typeof secret !== 'string' || secret.length < 4) return text;
	return text.split(secret).join('[API key]');
}
