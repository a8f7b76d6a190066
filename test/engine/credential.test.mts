// The credential test: a use case that does not exist answers 404 once the key
// is accepted, which counts as success; anything else is a clear failure.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();

test('passes for a valid key, probing GET /v1/use_cases/<id> with the key', async () => {
	const result = await env.engine.testCredential({ apiKey: env.sandbox.apiKey, baseUrl: `${env.sandbox.url}/v1/ ` });
	expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
	const [request] = await env.sandbox.requests();
	expect(request.method).toBe('GET');
	expect(request.url).toMatch(/^\/v1\/use_cases\/[^/]+$/);
	expect(request.headers['x-api-key']).toBe(env.sandbox.apiKey);
	expect(request.status).toBe(404);
});

test('fails with a clear message for a rejected key', async () => {
	const result = await env.engine.testCredential({ apiKey: 'wrong-key', baseUrl: env.sandbox.url });
	expect(result.status).toBe('Error');
	expect(result.message).toBe(
		"The service rejected the API key (HTTP 401). Copy a key from the service's portal: General › Integrations › API Keys.",
	);
});

test('fails when the Base URL does not answer', async () => {
	const closed = http.createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
	await new Promise((resolve) => closed.close(resolve));
	const result = await env.engine.testCredential({ apiKey: env.sandbox.apiKey, baseUrl: url });
	expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/ECONNREFUSED|refused/) });
});

test('fails when the Base URL is a web server that is not the service', async () => {
	const website = http.createServer((_, res) => {
		res.writeHead(404, { 'Content-Type': 'text/html' });
		res.end('<html><body>Not here</body></html>');
	});
	await new Promise<void>((resolve) => website.listen(0, '127.0.0.1', resolve));
	try {
		const result = await env.engine.testCredential({
			apiKey: env.sandbox.apiKey,
			baseUrl: `http://127.0.0.1:${(website.address() as AddressInfo).port}`,
		});
		expect(result).toEqual({
			status: 'Error',
			message: "The Base URL answered, but not with JSON: it does not look like the outreach service's API. Check the Base URL.",
		});
	} finally {
		website.close();
	}
});

test('fails when the service answers with a server error', async () => {
	await env.sandbox.addFault({ pathPrefix: '/v1/use_cases/', status: 503, body: { message: 'down' } });
	const result = await env.engine.testCredential({ apiKey: env.sandbox.apiKey, baseUrl: env.sandbox.url });
	expect(result.status).toBe('Error');
});
