/** The Outreach Sequences API credential: an API key sent in a header, the service's Base URL, and its test. */
import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { redact } from '../nodes/OutreachSequences/helpers/secret';
import { normalizeBaseUrl } from '../nodes/OutreachSequences/helpers/validation';

// The contract has no endpoint that answers a good key with 2xx and changes nothing: a 404 means the key was taken.
const TEST_PATH = '/v1/use_cases/n8n-credential-test';

/** All but 2xx and 404: n8n's tester gives a rule's sentence only to an answer it throws on. */
const FAILING = Array.from({ length: 900 }, (_, index) => index + 100).filter(
	(status) => (status < 200 || status >= 300) && status !== 404,
);

const sentence = (status: number) =>
	status === 401 || status === 403
		? `The service rejected the API key (HTTP ${status}). Copy a key from the service's portal: General › Integrations › API Keys.`
		: status < 400
			? `The Base URL answered with a redirect (HTTP ${status}). Redirects are not followed, so the API key only goes to the Base URL: set it to the address the service answers at.`
			: `The Base URL answered HTTP ${status}, so the API key could not be checked. Try the test again later; if it keeps failing, check the Base URL.`;

export class OutreachSequencesApi implements ICredentialType {
	name = 'outreachSequencesApi';

	displayName = 'Outreach Sequences API';

	documentationUrl =
		'https://github.com/__GITHUB_OWNER__/n8n-nodes-outreach-sequences#credential-outreach-sequences-api';

	icon = {
		light: 'file:../icons/outreachSequences.svg',
		dark: 'file:../icons/outreachSequences.dark.svg',
	} as const;

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: "Made in the service's portal under General › Integrations › API Keys",
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://api.example.com',
			description:
				"The address of the service's API, starting with https:// or http://. A trailing / or /v1 is left out.",
		},
	];

	// A function: n8n 2.x would evaluate a generic block's expression per request, in its isolate.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const headers = { ...requestOptions.headers, 'X-API-Key': String(credentials.apiKey ?? '') };
		if (requestOptions.url !== TEST_PATH) return { ...requestOptions, headers };
		// The test goes where the run sends, or fails with the run's sentence.
		const baseUrl = normalizeBaseUrl(credentials.baseUrl);
		if (!baseUrl.ok) throw new Error(redact(baseUrl.problem, credentials.apiKey));
		return { ...requestOptions, headers, baseURL: baseUrl.value };
	};

	test: ICredentialTestRequest = {
		request: {
			method: 'GET',
			// RoutingNode's allowed-domains check compares this host with the credential's.
			baseURL: '={{$credentials.baseUrl}}',
			url: TEST_PATH,
			json: true,
			disableFollowRedirect: true,
			// n8n 1.x never throws on any value here (so a wrong key would pass), and gives a test no `$execution`.
			ignoreHttpStatusErrors:
				`={{ typeof $execution === 'object' ? ${JSON.stringify({ ignore: true, except: FAILING })} : false }}` as unknown as boolean,
		},
		rules: [
			...FAILING.filter((status) => status >= 300).map((value) => ({
				type: 'responseCode' as const,
				properties: { value, message: sentence(value) },
			})),
			// n8n reads a body that is not JSON as a string, and lodash's get reaches its constructor.
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'constructor.name',
					value: 'String',
					message:
						"The Base URL answered, but not with JSON: it does not look like the outreach service's API. Check the Base URL.",
				},
			},
		] as unknown as IAuthenticateRuleResponseCode[],
	};
}
