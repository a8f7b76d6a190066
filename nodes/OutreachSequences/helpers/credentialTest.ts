/**
 * The credential's test, as a request n8n sends itself (the credential's
 * `test`, run by n8n's credentials tester through its RoutingNode and its
 * HTTP helper): n8n's proxy settings, SSRF protection and the credential's
 * authentication apply to it exactly as to the node's runs.
 *
 * It asks for a use case that does not exist (the contract has no endpoint
 * that answers a valid key with 2xx and changes nothing): a 404 with a JSON
 * body means the service took the key. n8n calls every answer its helper
 * does not throw on a success, so the request asks n8n to throw on every
 * status but 2xx and 404 (`except`), and each rule below turns one status
 * into a sentence. A body that is not JSON is read as a string: not the API.
 */
import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	IgnoreStatusErrorConfig,
} from 'n8n-workflow';

import { redact } from './secret';
import { normalizeBaseUrl } from './validation';

/** The contract has no ping endpoint; this use case does not exist. */
export const CREDENTIAL_TEST_PATH = '/v1/use_cases/n8n-credential-test';

export const keyRejected = (status: number) =>
	`The service rejected the API key (HTTP ${status}). Copy a key from the service's portal: General › Integrations › API Keys.`;

export const NOT_THE_API =
	"The Base URL answered, but not with JSON: it does not look like the outreach service's API. Check the Base URL.";

export const redirected = (status: number) =>
	`The Base URL answered with a redirect (HTTP ${status}). Redirects are not followed, so the API key only goes to the Base URL: set it to the address the service answers at.`;

export const notChecked = (status: number) =>
	`The Base URL answered HTTP ${status}, so the API key could not be checked. Try the test again later; if it keeps failing, check the Base URL.`;

/** The first n8n release whose RoutingNode hands a credential test's request `$execution` (n8n-core 2.20.0). */
export const EXCEPT_GATE_SINCE = '2.20.0';

/**
 * What an n8n before EXCEPT_GATE_SINCE says for the answer a good key gets:
 * there, the test does not ask for `except`, so n8n fails on the 404.
 */
export const NOT_REFUSED_BEFORE_GATE = `The Base URL answered HTTP 404 to the test's request for a use case that does not exist: if the Base URL is the outreach service's API, it did not refuse the API key. This n8n version shows that answer as a failed test; n8n ${EXCEPT_GATE_SINCE.replace(/\.0$/, '')} and later show it as "Connection successful!".`;

const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** The statuses that mean something else than "the key was taken": all but 2xx and 404. */
export const FAILING_STATUSES = [...range(100, 199), ...range(300, 999)].filter(
	(status) => status !== 404,
);

/** The ignoreHttpStatusErrors that makes n8n throw on FAILING_STATUSES, and on nothing else. */
const EXCEPT: IgnoreStatusErrorConfig = { ignore: true, except: FAILING_STATUSES };

/**
 * Before n8n-core 2.11, n8n read any `ignoreHttpStatusErrors` object as
 * "throw on nothing", and a wrong key would pass the test. So `except` is
 * given only where the request's expressions see `$execution`: RoutingNode
 * hands it to them from n8n-core 2.20.0, which has `except`. Elsewhere n8n
 * throws on every status but 2xx, and NOT_REFUSED_BEFORE_GATE says the 404.
 */
export const IGNORE_STATUS_ERRORS = `={{ typeof $execution === 'object' ? ${JSON.stringify(EXCEPT)} : false }}`;

/**
 * What the test says of a Base URL the node's run refuses (no http:// or
 * https://, a user name, "?" or "#", empty): the run's own sentence, before
 * anything is sent. The credential's authenticate, which n8n calls on the
 * test's request path, throws it for the test's request (`url`), and n8n
 * shows an error's message as the test's: otherwise its words would be
 * ERR_INVALID_URL (2.x) or Invalid URL (1.x). A refused connection can't
 * be worded so: nothing of a declarative test runs after the request fails,
 * and n8n 2.x answers with the network code first (docs/errors.md).
 */
export function baseUrlRefused(
	credentials: ICredentialDataDecryptedObject,
	url: string,
): string | undefined {
	if (url !== CREDENTIAL_TEST_PATH) return undefined;
	const checked = normalizeBaseUrl(credentials.baseUrl);
	return checked.ok ? undefined : redact(checked.problem, credentials.apiKey);
}

/**
 * The Base URL as the run sends to it (normalizeBaseUrl in validation.ts):
 * trimmed, without a trailing / or /v1. One that the run refuses (no
 * http:// or https://, a user name, "?" or "#") becomes "", which n8n
 * refuses as an invalid URL before any request.
 */
export const BASE_URL =
	"={{ (() => { const text = String($credentials.baseUrl || '').trim(); const parts = /^(https?:\\/\\/[^/?#@\\s]+)([^?#@]*)$/i.exec(text); return parts ? parts[1] + parts[2].replace(/(?:\\/v1)?\\/*$/, '') : ''; })() }}";

const rule = (value: number, message: string): IAuthenticateRuleResponseCode => ({
	type: 'responseCode',
	properties: { value, message },
});

/**
 * A sentence for each status HTTP defines from 300 on (RFC 9110 and the
 * registry's others, in ranges); n8n says the rest, which fail all the same,
 * in its own words: the reason phrase, or "Received HTTP status code: …".
 */
const SAID = [...range(300, 308), ...range(400, 431), 451, ...range(500, 511)];

const statusRules: IAuthenticateRuleResponseCode[] = SAID.map((status) => {
	if (status === 401 || status === 403) return rule(status, keyRejected(status));
	if (status < 400) return rule(status, redirected(status));
	if (status === 404) return rule(status, NOT_REFUSED_BEFORE_GATE);
	return rule(status, notChecked(status));
});

/**
 * n8n reads a body that is not JSON (a web page, nothing) as a string, and
 * looks the key up with lodash's get, which reaches a string's constructor.
 */
const bodyRule: IAuthenticateRuleResponseSuccessBody = {
	type: 'responseSuccessBody',
	properties: { key: 'constructor.name', value: 'String', message: NOT_THE_API },
};

/**
 * n8n's type takes one kind of rule per list; its tester reads each rule by
 * its `type`, and a status rule only ever meets a thrown answer.
 */
const rules = [...statusRules, bodyRule] as unknown as IAuthenticateRuleResponseCode[];

export const credentialTest: ICredentialTestRequest = {
	request: {
		method: 'GET',
		baseURL: BASE_URL,
		url: CREDENTIAL_TEST_PATH,
		json: true,
		// A redirect must never carry the X-API-Key to another host.
		disableFollowRedirect: true,
		// n8n resolves the expression before it sends; its type names only what it resolves to.
		ignoreHttpStatusErrors: IGNORE_STATUS_ERRORS as unknown as boolean,
	},
	rules,
};
