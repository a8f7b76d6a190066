// Outreach Sequences API credentials as the suites import them, and the
// sentences the node says when one of them is wrong: in the credential's test
// (the editor's dialog, POST /rest/credentials/test) and on a failed item.
import type { N8nSetup } from './stage.mts';

type StoredCredential = NonNullable<N8nSetup['credentials']>[number];

/** A Base URL whose host DNS does not know. */
export const UNKNOWN_HOST_URL = 'http://outreach-sandbox.invalid';

/** The credential `id` (named `name`) with this key, pointing at `baseUrl`. */
export const outreachApiCredential = (
	id: string,
	apiKey: string,
	baseUrl: string,
	name = id,
): StoredCredential => ({
	id,
	name,
	type: 'outreachSequencesApi',
	data: { apiKey, baseUrl },
});

export const SAYS = {
	accepted: 'The outreach service accepted the API key.',
	wrongKey:
		"The service rejected the API key (HTTP 401). Copy a key from the service's portal: General › Integrations › API Keys.",
	schemeless: (baseUrl: string) =>
		`The credential's Base URL "${baseUrl}" has no http:// or https:// at the start. Add the one the service uses, for example https://${baseUrl}.`,
	refused: (baseUrl: string) =>
		`Could not connect to the outreach service at ${baseUrl}: the connection was refused. Check the credential's Base URL and that the service is running.`,
	unknownHost: `The host "${new URL(UNKNOWN_HOST_URL).host}" in the credential's Base URL could not be found: the DNS lookup failed.`,
};
