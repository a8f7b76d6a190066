// Outreach Sequences API credentials as the suites import them, and what the
// credential's test (POST /rest/credentials/test, which n8n runs) shows when one
// is wrong: the message of the rule n8n applies, as n8n serves the rules, or
// n8n's own words. The rules' words: test/unit/credential-test.test.mts.
import { major } from '../../../scripts/n8n/versions.mts';
import type { N8nServer } from './n8n.mts';
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

/**
 * What the test shows: n8n's own words or the run's sentence (a text, or a
 * pattern), or the message of the test's rule for an answer with this
 * status, or for a body that is not JSON ('body'): which rule n8n applies is
 * what a run shows, whatever its words.
 */
type Shown = string | RegExp | { rule: number | 'body' };
type TestResult = { status: 'OK' | 'Error'; message: Shown };
const ok = (message: string): TestResult => ({ status: 'OK', message });
const error = (message: Shown): TestResult => ({ status: 'Error', message });
const ruleFor = (rule: number | 'body') => error({ rule });

/** The text a result shows, a rule's message as n8n serves the credential type to its editor (/types/credentials.json). */
export async function shownText(server: N8nServer, shown: Shown): Promise<string | RegExp> {
	if (typeof shown === 'string' || shown instanceof RegExp) return shown;
	const response = await fetch(`${server.url}/types/credentials.json`, {
		headers: { cookie: server.cookie },
	});
	const types = (await response.json()) as Array<{
		name: string;
		test?: { rules?: Array<{ type: string; properties: { value?: unknown; message: string } }> };
	}>;
	const rules = types.find((type) => type.name === 'outreachSequencesApi')?.test?.rules ?? [];
	const rule = rules.find((candidate) =>
		shown.rule === 'body'
			? candidate.type === 'responseSuccessBody'
			: candidate.type === 'responseCode' && candidate.properties.value === shown.rule,
	);
	if (!rule) throw new Error(`n8n holds no rule of the credential test for ${shown.rule}`);
	return rule.properties.message;
}

/**
 * A Base URL without http:// or https://, which the test refuses on both
 * lines with the run's sentence (helpers/validation.ts): it names the
 * sandbox's address as given, without its scheme.
 */
const SCHEMELESS = /"127\.0\.0\.1:\d+"/;

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
			wrongKey: ruleFor(401),
			forbidden: ruleFor(403),
			serverError: ruleFor(500),
			webPage404: ruleFor('body'),
			webPage200: ruleFor('body'),
			redirect: ruleFor(302),
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
		webPage200: ruleFor('body'),
		redirect: error('Request failed with status code 302'),
		schemeless: error(SCHEMELESS),
		refused: error('The service refused the connection - perhaps it is offline'),
		unknownHost: error(
			'The connection cannot be established, this usually occurs due to an incorrect host (domain) value',
		),
	};
}
