/** The Outreach Sequences API credential: an API key sent in a header, and the service's Base URL. */
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import {
	CREDENTIAL_TEST_PATH,
	credentialTest,
} from '../nodes/OutreachSequences/helpers/credentialTest';
import { redact } from '../nodes/OutreachSequences/helpers/secret';
import { normalizeBaseUrl } from '../nodes/OutreachSequences/helpers/validation';

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

	/** A function, not a generic block: n8n 2.x evaluates a generic block's expression per request, in its isolate. */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const withKey = {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				'X-API-Key': credentials.apiKey ? String(credentials.apiKey) : '',
			},
		};
		if (requestOptions.url !== CREDENTIAL_TEST_PATH) return withKey;
		// The test's Base URL as the run sends to it, or the run's own sentence for one it refuses.
		const checked = normalizeBaseUrl(credentials.baseUrl);
		if (!checked.ok) throw new Error(redact(checked.problem, credentials.apiKey));
		return { ...withKey, baseURL: checked.value };
	};

	test: ICredentialTestRequest = credentialTest;
}
