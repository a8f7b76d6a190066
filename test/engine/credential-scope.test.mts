// The API key goes to the credential's Base URL host and nowhere else: a 3xx
// from the service is never followed (to another host or to the same one),
// the error shows where it pointed, and nothing in an identifier or a body
// moves a request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runFixture, type OnError } from '../harness/workflows.mts';
import { startOver, useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();

let elsewhere: http.Server;
let elsewhereUrl = '';
const received: Array<{ url?: string; key?: string | string[] }> = [];

beforeAll(async () => {
	elsewhere = http.createServer((req, res) => {
		received.push({ url: req.url, key: req.headers['x-api-key'] });
		res.setHeader('content-type', 'application/json');
		res.end('{"id":"c-43","stolen":true}');
	});
	// Another loopback address: another host as far as any client can tell.
	await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.2', resolve));
	elsewhereUrl = `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}`;
});

afterEach(() => {
	received.length = 0;
});

afterAll(async () => {
	await new Promise((resolve) => elsewhere.close(resolve));
});

const MODES: OnError[] = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];

describe.each([301, 302, 303, 307, 308])('HTTP %i', (status) => {
	test.each([
		['another host', () => `${elsewhereUrl}/v1/contacts/c-43/archive`],
		['the same host', () => `${env.sandbox.url}/v1/contacts/c-42/archive`],
	])('to %s is not followed, under every On Error mode', async (_, location) => {
		for (const mode of MODES) {
			await startOver(env);
			await env.sandbox.addFault({
				pathPrefix: '/v1/contacts/c-43/',
				status,
				headers: { Location: location() },
			});
			const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
				items: [{ id: 'c-42' }, { id: 'c-43' }],
				onError: mode,
			});
			// After an archive (a POST), a 3xx may come after the service acted (test/unit/texts-http.test.mts).
			const failed = run.all.find((item) => (item.pairedItem as { item: number }).item === 1);
			// Where it pointed is the user's to see, not the node's to follow.
			if (mode === 'stopWorkflow') {
				expect(run.error?.message).toContain(location());
				expect(run.error).toMatchObject({ context: { itemIndex: 1 }, httpCode: String(status) });
			} else {
				expect(failed?.json.error).toContain(location());
				expect(failed?.json.message).toMatchObject({ statusCode: status, outcome: 'mayHaveActed' });
			}
			// Exactly the two original requests: the redirect was not followed anywhere.
			const requests = await env.sandbox.requests();
			expect(requests.map((request) => request.url).sort()).toEqual([
				'/v1/contacts/c-42/archive',
				'/v1/contacts/c-43/archive',
			]);
			expect(received).toEqual([]);
		}
	});
});

test('every operation sends the key to the Base URL host only', async () => {
	const runs = [
		runFixture(env.engine, env.sandbox, 'contact-archive', { items: [{ id: 'c-42' }] }),
		runFixture(env.engine, env.sandbox, 'contact-list-archive', { items: [{ id: 'list-1' }] }),
		runFixture(env.engine, env.sandbox, 'use-case-get', { items: [{ id: 'uc-1' }] }),
		runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items: [{ name: elsewhereUrl }],
		}),
		runFixture(env.engine, env.sandbox, 'sequence-create-json', {
			items: [{}],
			parameters: {
				jsonBody: JSON.stringify({
					name: 'x',
					callback: elsewhereUrl,
					url: `${elsewhereUrl}/v1/sequences`,
				}),
			},
		}),
	];
	for (const run of await Promise.all(runs)) expect(run.error).toBeUndefined();
	const requests = await env.sandbox.requests();
	expect(requests).toHaveLength(5);
	const host = new URL(env.sandbox.url).host;
	for (const request of requests) {
		expect(request.headers.host).toBe(host);
		expect(request.headers['x-api-key']).toBe(env.sandbox.apiKey);
	}
	expect(received).toEqual([]);
});

test('a Base URL ending in /v1/ keeps requests on its own host', async () => {
	const base = new URL(env.sandbox.url);
	const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
		items: [{ id: 'uc-1' }],
		onError: 'continueRegularOutput',
		credential: { apiKey: env.sandbox.apiKey, baseUrl: `${base.protocol}//${base.host}/v1/` },
	});
	expect(run.all[0].json.id).toBe('uc-1');
	expect(received).toEqual([]);
});

test('a key pasted into the Base URL is not shown in the setup error of any item', async () => {
	const key = env.sandbox.apiKey;
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }, { id: 'c-43' }],
		onError: 'continueRegularOutput',
		credential: { apiKey: key, baseUrl: key },
	});
	expect(run.all).toHaveLength(2);
	for (const item of run.all) {
		expect(typeof item.json.error).toBe('string');
		expect(JSON.stringify(item.json)).not.toContain(key);
	}
	expect(await env.sandbox.requests()).toHaveLength(0);
});
