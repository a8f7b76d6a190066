import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { baseUrlRefused, credentialTest } from '../nodes/OutreachSequences/helpers/credentialTest';
import { API_KEY_HEADER, CREDENTIAL_TYPE } from '../nodes/OutreachSequences/helpers/names';

export class OutreachSequencesApi implements ICredentialType {
	name = CREDENTIAL_TYPE;

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

	/**
	 * The key in the API_KEY_HEADER header of every request, this node's and the HTTP Request
	 * node's alike. A function, not a generic block: n8n 2.x evaluates a generic block's
	 * '={{$credentials.apiKey}}' as an expression, in its isolate, for every request. The header
	 * is what that block gave: the key as text, '' without one; the other headers stay as sent.
	 */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		// The credential test's own request says what is wrong with the Base URL, in the run's words.
		const refused = baseUrlRefused(credentials, requestOptions.url);
		if (refused) throw new Error(refused);
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				[API_KEY_HEADER]: credentials.apiKey ? String(credentials.apiKey) : '',
			},
		};
	};

	// n8n sends the test itself, through its proxy settings and SSRF protection, as it sends the node's requests.
	test: ICredentialTestRequest = credentialTest;
}
