// Outreach Sequences API credentials as the suites import them, and what
// users read when one of them is wrong: on a failed item (the node's
// sentences), and in the credential's test (the editor's dialog, POST
// /rest/credentials/test), which n8n runs and words itself where the test's
// rules have no sentence.
import {
	NOT_THE_API,
	keyRejected,
	notChecked,
	redirected,
} from '../../../nodes/OutreachSequences/helpers/credentialTest.ts';
import { major } from '../../../scripts/n8n/versions.mts';
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

/** A failed item's sentences (run/outcome/texts.ts). */
export const SAYS = {
	refused: (baseUrl: string) =>
		`Could not connect to the outreach service at ${baseUrl}: the connection was refused. Check the credential's Base URL and that the service is running.`,
	unknownHost: `The host "${new URL(UNKNOWN_HOST_URL).host}" in the credential's Base URL could not be found: the DNS lookup failed.`,
};

type TestResult = { status: 'OK' | 'Error'; message: string | RegExp };
const ok = (message: string): TestResult => ({ status: 'OK', message });
const error = (message: string | RegExp): TestResult => ({ status: 'Error', message });

/**
 * The run's sentence for a Base URL without http:// or https://
 * (helpers/validation.ts), which the test says on both lines: here for the
 * sandbox's address without its scheme.
 */
const SCHEMELESS =
	/^The credential's Base URL "127\.0\.0\.1:\d+" has no http:\/\/ or https:\/\/ at the start\. Add the one the service answers on: https:\/\/127\.0\.0\.1:\d+ or http:\/\/127\.0\.0\.1:\d+\.$/;

/**
 * What the credential test shows on each n8n line. n8n 2.x (from 2.20) runs
 * every rule of the test; its own words are a network code. n8n 1.x applies
 * no status rule to the request of a credential (its error keeps no
 * response), so each status is in its words, and the 404 a good key gets
 * fails the test. On both, a Base URL the run refuses is the run's sentence.
 */
export function credentialTestSays(version: string) {
	if (major(version) >= 2)
		return {
			accepted: ok('Connection successful!'),
			wrongKey: error(keyRejected(401)),
			forbidden: error(keyRejected(403)),
			serverError: error(notChecked(500)),
			webPage404: error(NOT_THE_API),
			webPage200: error(NOT_THE_API),
			redirect: error(redirected(302)),
			schemeless: error(SCHEMELESS),
			refused: error('ECONNREFUSED'),
			unknownHost: error('ENOTFOUND'),
		};
	return {
		accepted: error('The resource you are requesting could not be found'),
		wrongKey: error('Authorization failed - please check your credentials'),
		forbidden: error('Forbidden - perhaps check your credentials?'),
		serverError: error('The service was not able to process your request'),
		webPage404: error('The resource you are requesting could not be found'),
		webPage200: error(NOT_THE_API),
		redirect: error('Request failed with status code 302'),
		schemeless: error(SCHEMELESS),
		refused: error('The service refused the connection - perhaps it is offline'),
		unknownHost: error(
			'The connection cannot be established, this usually occurs due to an incorrect host (domain) value',
		),
	};
}
