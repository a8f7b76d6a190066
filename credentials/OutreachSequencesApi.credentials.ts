import type {
	IAuthenticateGeneric,
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../nodes/OutreachSequences/describe/names';
import { BASE_URL_SUFFIX } from '../nodes/OutreachSequences/describe/validation';

/**
 * The test's rule: the probe asks for a use case that does not exist. 404
 * means the key was accepted; any other status from 400 to 599 fails the
 * test. n8n states this as "ignore every status except these".
 */
const KEY_ACCEPTED = 404;
const FAILS_THE_TEST = Array.from({ length: 200 }, (_, offset) => 400 + offset).filter((status) => status !== KEY_ACCEPTED);

export class OutreachSequencesApi implements ICredentialType {
	name = CREDENTIAL_TYPE;

	displayName = 'Outreach Sequences API';

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-outreach-sequences#credential-outreach-sequences-api';

	icon = { light: 'file:../icons/outreachSequences.svg', dark: 'file:../icons/outreachSequences.dark.svg' } as const;

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
			description: "The address of the service's API, starting with https:// or http://. A trailing / or /v1 is left out.",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-API-Key': '={{$credentials.apiKey}}',
			},
		},
	};

	// The contract has no ping endpoint. A use case that does not exist answers
	// 404 once the key is accepted, and 401 or 403 when it is not.
	test: ICredentialTestRequest = {
		request: {
			// The node's Base URL rule (normalizeBaseUrl), as an n8n expression.
			baseURL: `={{ String($credentials.baseUrl).trim().replace(${BASE_URL_SUFFIX}, "") }}`,
			url: '/v1/use_cases/n8n-credential-test',
			method: 'GET',
			json: true,
			disableFollowRedirect: true,
			ignoreHttpStatusErrors: { ignore: true, except: FAILS_THE_TEST },
		},
		// n8n's tester checks each rule by its type, but n8n-workflow types the list
		// as one kind of rule only; both kinds are needed here.
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: "The service rejected the API key (HTTP 401). Copy a key from the service's portal: General › Integrations › API Keys.",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: "The service rejected the API key (HTTP 403). Copy a key from the service's portal: General › Integrations › API Keys.",
				},
			},
			{
				// A JSON answer parses to an object; an HTML page, a redirect or an
				// empty body stays text. Text means the Base URL is not the API.
				type: 'responseSuccessBody',
				properties: {
					key: 'constructor.name',
					value: 'String',
					message: "The Base URL answered, but not with JSON: it does not look like the outreach service's API. Check the Base URL.",
				},
			},
		] as Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody> as ICredentialTestRequest['rules'],
	};
}
