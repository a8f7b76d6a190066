/** The credential's test: a request n8n sends itself (its proxy, its SSRF protection), and a sentence per answer. */
import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
	IgnoreStatusErrorConfig,
} from 'n8n-workflow';

// The contract has no endpoint that answers a good key with 2xx and changes nothing: a 404 in JSON means the key was taken.
export const CREDENTIAL_TEST_PATH = '/v1/use_cases/n8n-credential-test';

export const keyRejected = (status: number) =>
	`The service rejected the API key (HTTP ${status}). Copy a key from the service's portal: General › Integrations › API Keys.`;

export const NOT_THE_API =
	"The Base URL answered, but not with JSON: it does not look like the outreach service's API. Check the Base URL.";

export const redirected = (status: number) =>
	`The Base URL answered with a redirect (HTTP ${status}). Redirects are not followed, so the API key only goes to the Base URL: set it to the address the service answers at.`;

export const notChecked = (status: number) =>
	`The Base URL answered HTTP ${status}, so the API key could not be checked. Try the test again later; if it keeps failing, check the Base URL.`;

const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, index) => from + index);

export const FAILING_STATUSES = [...range(100, 199), ...range(300, 999)].filter(
	(status) => status !== 404,
);

const EXCEPT: IgnoreStatusErrorConfig = { ignore: true, except: FAILING_STATUSES };

// Before n8n-core 2.11 any object here meant "throw on nothing", so a wrong key would pass; `$execution` reaches a
// test's expressions from n8n-core 2.20, which reads `except`. Before it, n8n throws on all but 2xx, in its own words.
export const IGNORE_STATUS_ERRORS = `={{ typeof $execution === 'object' ? ${JSON.stringify(EXCEPT)} : false }}`;

const rule = (value: number, message: string): IAuthenticateRuleResponseCode => ({
	type: 'responseCode',
	properties: { value, message },
});

const statusRules = [
	...range(300, 308),
	...range(400, 403),
	...range(405, 431),
	451,
	...range(500, 511),
].map((status) => {
	if (status === 401 || status === 403) return rule(status, keyRejected(status));
	if (status < 400) return rule(status, redirected(status));
	return rule(status, notChecked(status));
});

// n8n reads a body that is not JSON as a string, and lodash's get reaches its constructor.
const bodyRule: IAuthenticateRuleResponseSuccessBody = {
	type: 'responseSuccessBody',
	properties: { key: 'constructor.name', value: 'String', message: NOT_THE_API },
};

export const credentialTest: ICredentialTestRequest = {
	request: {
		method: 'GET',
		// The credential's authenticate normalises it, as the run does, or says what is wrong with it.
		baseURL: '={{$credentials.baseUrl}}',
		url: CREDENTIAL_TEST_PATH,
		json: true,
		disableFollowRedirect: true,
		ignoreHttpStatusErrors: IGNORE_STATUS_ERRORS as unknown as boolean,
	},
	// n8n's type takes one kind of rule per list; its tester reads each rule by its `type`.
	rules: [...statusRules, bodyRule] as unknown as IAuthenticateRuleResponseCode[],
};
