// The credential's authenticate, which n8n calls for every request that uses
// the credential: this node's, and the HTTP Request node's with Predefined
// Credential Type. It gives each request what the generic block
// `headers: { 'X-API-Key': '={{$credentials.apiKey}}' }` gave, without an
// expression for n8n to evaluate per request. In real n8n:
// test/e2e/install-paths.e2e.mts.
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { OutreachSequencesApi } from '../../credentials/OutreachSequencesApi.credentials.ts';
import { CREDENTIAL_TEST_PATH } from '../../nodes/OutreachSequences/helpers/credentialTest.ts';
import { normalizeBaseUrl } from '../../nodes/OutreachSequences/helpers/validation.ts';

const credential = new OutreachSequencesApi();
const authenticate = credential.authenticate as (
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
) => Promise<IHttpRequestOptions>;
const baseUrl = 'https://api.example.com';

test('is a function, so that n8n evaluates no expression for it', () => {
	expect(typeof credential.authenticate).toBe('function');
});

test('adds X-API-Key with the key, and keeps the request and its other headers as they were', async () => {
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: `${baseUrl}/v1/sequences`,
		body: '{"name":"a"}',
		headers: { 'Content-Type': 'application/json' },
		json: true,
		disableFollowRedirect: true,
	};
	const sent = await authenticate({ apiKey: 'key-1', baseUrl }, request);
	expect(sent).toEqual({
		...request,
		headers: { 'Content-Type': 'application/json', 'X-API-Key': 'key-1' },
	});
	// The request it was given is not changed under its sender.
	expect(request.headers).toEqual({ 'Content-Type': 'application/json' });
});

test('a request without headers gets that one header', async () => {
	const sent = await authenticate({ apiKey: 'key-2', baseUrl }, { url: `${baseUrl}/v1/x` });
	expect(sent).toEqual({ url: `${baseUrl}/v1/x`, headers: { 'X-API-Key': 'key-2' } });
});

test("without a key, the header is empty, as the generic block's expression gave it", async () => {
	const withoutKey: ICredentialDataDecryptedObject[] = [{ apiKey: '', baseUrl }, { baseUrl }];
	for (const credentials of withoutKey) {
		const sent = await authenticate(credentials, { url: `${baseUrl}/v1/x` });
		expect(sent.headers).toEqual({ 'X-API-Key': '' });
	}
});

describe("the credential test's own request: a Base URL the run refuses, in the run's words, before anything is sent", () => {
	const test_ = { url: CREDENTIAL_TEST_PATH, baseURL: '' };

	test('no http:// or https://, and the other Base URLs the run refuses, each in its sentence', async () => {
		for (const wrong of [
			'localhost:4010',
			'',
			'https://user:pass@api.example.com',
			'https://a.example.com/?x',
		]) {
			const said = normalizeBaseUrl(wrong);
			if (said.ok) throw new Error(`the run takes ${wrong}`);
			await expect(authenticate({ apiKey: 'key-1', baseUrl: wrong }, test_)).rejects.toThrow(
				new Error(said.problem),
			);
		}
	});

	test('a Base URL that holds the key does not show it', async () => {
		await expect(
			authenticate({ apiKey: 'key-12345', baseUrl: 'key-12345' }, test_),
		).rejects.toThrow(
			'The credential\'s Base URL "[API key]" has no http:// or https:// at the start.',
		);
	});

	test('any other request goes on as it was', async () => {
		const request = { url: 'https://elsewhere.example.com/x' };
		const sent = await authenticate({ apiKey: 'key-1', baseUrl: 'localhost:4010' }, { ...request });
		expect(sent).toEqual({ ...request, headers: { 'X-API-Key': 'key-1' } });
	});

	test.each([
		['https://api.example.com', 'https://api.example.com'],
		[' https://api.example.com/v1/ ', 'https://api.example.com'],
		['http://127.0.0.1:4010//', 'http://127.0.0.1:4010'],
		['https://api.example.com/outreach/v1', 'https://api.example.com/outreach'],
	])('the test goes to the Base URL %j as the run sends to it', async (given, sentTo) => {
		const sent = await authenticate(
			{ apiKey: 'key-1', baseUrl: given },
			{ url: CREDENTIAL_TEST_PATH, baseURL: given },
		);
		expect(sent).toEqual({
			url: CREDENTIAL_TEST_PATH,
			baseURL: sentTo,
			headers: { 'X-API-Key': 'key-1' },
		});
	});
});
