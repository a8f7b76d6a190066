// The credential test, as n8n's credentials tester runs it (the node's
// credentialTest method, named by testedBy): a use case that does not exist
// answers 404 once the key is accepted, which counts as success; every other
// outcome is a sentence that says what happened and what to do. Nothing is
// mocked: the sandbox, a closed port, a host that can't resolve, a web page,
// a redirect and a self-signed certificate, all on this machine.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();

const KEY_REJECTED_401 =
	"The service rejected the API key (HTTP 401). Copy a key from the service's portal: General › Integrations › API Keys.";
const NOT_THE_API =
	"The Base URL answered, but not with JSON: it does not look like the outreach service's API. Check the Base URL.";

async function listen(server: http.Server | https.Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closed with the connections fetch keeps alive, so that nothing outlives the test. */
function stop(server: http.Server | https.Server): void {
	server.closeAllConnections();
	server.close();
}

/** A port on this machine where nothing listens: one that was just given back. */
async function closedPort(): Promise<string> {
	const server = http.createServer();
	const host = await listen(server);
	await new Promise((resolve) => server.close(resolve));
	return host;
}

test('passes for a valid key, with one GET of /v1/use_cases/n8n-credential-test carrying the key', async () => {
	const result = await env.engine.testCredential({
		apiKey: env.sandbox.apiKey,
		baseUrl: `${env.sandbox.url}/v1/ `,
	});
	expect(result).toEqual({ status: 'OK', message: 'The outreach service accepted the API key.' });
	const requests = await env.sandbox.requests();
	expect(requests.map((request) => `${request.method} ${request.url} ${request.status}`)).toEqual([
		'GET /v1/use_cases/n8n-credential-test 404',
	]);
	expect(requests[0].headers['x-api-key']).toBe(env.sandbox.apiKey);
});

test('a wrong key: the 401 sentence, saying where a key comes from', async () => {
	const result = await env.engine.testCredential({
		apiKey: 'wrong-key-0123',
		baseUrl: env.sandbox.url,
	});
	expect(result).toEqual({ status: 'Error', message: KEY_REJECTED_401 });
	const [request] = await env.sandbox.requests();
	expect([request.status, request.headers['x-api-key']]).toEqual([401, 'wrong-key-0123']);
});

test('a 403 is a rejected key too', async () => {
	await env.sandbox.addFault({
		pathPrefix: '/v1/use_cases/',
		status: 403,
		body: { message: 'forbidden' },
	});
	const result = await env.engine.testCredential({
		apiKey: env.sandbox.apiKey,
		baseUrl: env.sandbox.url,
	});
	expect(result).toEqual({ status: 'Error', message: KEY_REJECTED_401.replace('401', '403') });
});

test("a port where nothing listens: the run's sentence for a refused connection, naming the Base URL", async () => {
	const host = await closedPort();
	const result = await env.engine.testCredential({
		apiKey: env.sandbox.apiKey,
		baseUrl: `http://${host}`,
	});
	expect(result).toEqual({
		status: 'Error',
		message: `Could not connect to the outreach service at http://${host}: the connection was refused. Check the credential's Base URL and that the service is running.`,
	});
});

test("a host that does not resolve: the run's sentence for a failed DNS lookup, naming the host", async () => {
	// .invalid never resolves (RFC 6761).
	const result = await env.engine.testCredential({
		apiKey: env.sandbox.apiKey,
		baseUrl: 'http://outreach-sandbox.invalid',
	});
	expect(result).toEqual({
		status: 'Error',
		message:
			'The host "outreach-sandbox.invalid" in the credential\'s Base URL could not be found: the DNS lookup failed.',
	});
});

test('a Base URL without http:// or https:// is refused with the sentence that says so, and nothing is sent', async () => {
	const schemeless = env.sandbox.url.replace(/^http:\/\//, '');
	const result = await env.engine.testCredential({
		apiKey: env.sandbox.apiKey,
		baseUrl: schemeless,
	});
	expect(result).toEqual({
		status: 'Error',
		message: `The credential's Base URL "${schemeless}" has no http:// or https:// at the start. Add the one the service uses, for example https://${schemeless}.`,
	});
	expect(await env.sandbox.requests()).toEqual([]);
});

test('a web server that is not the service: answered, but not JSON', async () => {
	const website = http.createServer((_, res) => {
		res.writeHead(404, { 'Content-Type': 'text/html' });
		res.end('<html><body>Not here</body></html>');
	});
	const host = await listen(website);
	try {
		const result = await env.engine.testCredential({
			apiKey: env.sandbox.apiKey,
			baseUrl: `http://${host}`,
		});
		expect(result).toEqual({ status: 'Error', message: NOT_THE_API });
	} finally {
		stop(website);
	}
});

test("a server error: the status and the service's words, and the key could not be checked", async () => {
	await env.sandbox.addFault({
		pathPrefix: '/v1/use_cases/',
		status: 503,
		body: { message: 'down for maintenance' },
	});
	const result = await env.engine.testCredential({
		apiKey: env.sandbox.apiKey,
		baseUrl: env.sandbox.url,
	});
	expect(result).toEqual({
		status: 'Error',
		message:
			'The Base URL answered HTTP 503: down for maintenance, so the API key could not be checked. Try the test again later; if it keeps failing, check the Base URL.',
	});
});

test('a redirect is not followed, so the key goes nowhere else, and the sentence names where it pointed', async () => {
	const elsewhere: string[] = [];
	const other = http.createServer((req, res) => {
		elsewhere.push(String(req.headers['x-api-key']));
		res.end('{}');
	});
	const otherHost = await listen(other);
	const redirecting = http.createServer((_, res) => {
		res.writeHead(302, { Location: `http://${otherHost}/v1/use_cases/n8n-credential-test` });
		res.end();
	});
	const host = await listen(redirecting);
	try {
		const result = await env.engine.testCredential({
			apiKey: env.sandbox.apiKey,
			baseUrl: `http://${host}`,
		});
		expect(result).toEqual({
			status: 'Error',
			message: `The Base URL answered with a redirect (HTTP 302 to http://${otherHost}/v1/use_cases/n8n-credential-test). Redirects are not followed, so the API key only goes to the Base URL: set it to the address the service answers at.`,
		});
		expect(elsewhere).toEqual([]);
	} finally {
		stop(redirecting);
		stop(other);
	}
});

test("a certificate that can't be verified: the run's sentence for TLS, and what the node can do about it", async () => {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'outreach-tls-'));
	try {
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'rsa:2048',
				'-nodes',
				'-days',
				'1',
				'-subj',
				'/CN=127.0.0.1',
				'-keyout',
				path.join(folder, 'key.pem'),
				'-out',
				path.join(folder, 'cert.pem'),
			],
			{
				stdio: 'ignore',
			},
		);
		const server = https.createServer(
			{
				key: readFileSync(path.join(folder, 'key.pem')),
				cert: readFileSync(path.join(folder, 'cert.pem')),
			},
			(_, res) => {
				res.writeHead(404, { 'Content-Type': 'application/json' });
				res.end('{"message":"Resource not found"}');
			},
		);
		const host = await listen(server);
		try {
			const result = await env.engine.testCredential({
				apiKey: env.sandbox.apiKey,
				baseUrl: `https://${host}`,
			});
			expect(result).toEqual({
				status: 'Error',
				message: `The TLS certificate of https://${host} was not accepted. This test always checks it; if you trust this server, the node's Request Options › Ignore SSL Issues (Insecure) can skip the check.`,
			});
		} finally {
			stop(server);
		}
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
});

test('the API key is in no message, even when the service quotes it back', async () => {
	await env.sandbox.addFault({
		pathPrefix: '/v1/use_cases/',
		status: 500,
		body: { message: `no such key ${env.sandbox.apiKey}` },
	});
	const result = await env.engine.testCredential({
		apiKey: env.sandbox.apiKey,
		baseUrl: env.sandbox.url,
	});
	expect(result.message).toBe(
		'The Base URL answered HTTP 500: no such key [API key], so the API key could not be checked. Try the test again later; if it keeps failing, check the Base URL.',
	);
});
