// The API key goes to the credential's Base URL host and nowhere else: a 3xx
// is never followed (to another host or the same one), the error shows where
// it pointed, and nothing in an identifier or a body moves a request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runFixture } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();
let elsewhere: http.Server;
let other = '';
const received: string[] = [];

beforeAll(async () => {
	elsewhere = http.createServer((req, res) => {
		received.push(`${req.method} ${req.url}`);
		res.setHeader('content-type', 'application/json');
		res.end('{"id":"c-43","stolen":true}');
	});
	// Another loopback address: another host as far as any client can tell.
	await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.2', resolve));
	other = `127.0.0.2:${(elsewhere.address() as AddressInfo).port}`;
});
afterEach(() => {
	received.length = 0;
});
afterAll(() => new Promise((resolve) => elsewhere.close(resolve)));

// Each status under each On Error mode: fault-matrix.test.mts (302). Concurrency: the node's default.
test.each(
	[301, 302, 303, 307, 308].flatMap((status) => [
		[status, 'another host', () => `http://${other}/v1/contacts/c-43/archive`],
		[status, 'the same host', () => `${env.sandbox.url}/v1/contacts/c-42/archive`],
	]),
)(
	'HTTP %i to %s is not followed, and the item says where it pointed',
	async (status, _, location) => {
		await env.sandbox.addFault({
			pathPrefix: '/v1/contacts/c-43/',
			status,
			headers: { Location: location() },
		});
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'c-42' }, { id: 'c-43' }],
			onError: 'continueRegularOutput',
		});
		// After a POST, the service may have acted.
		expect(run.all[1].json.message).toMatchObject({ statusCode: status, outcome: 'mayHaveActed' });
		expect(String(run.all[1].json.error)).toContain(location());
		const urls = (await env.sandbox.requests()).map((request) => request.url).sort();
		expect(urls).toEqual(['/v1/contacts/c-42/archive', '/v1/contacts/c-43/archive']);
		expect(received).toEqual([]);
	},
);

test('IDs and bodies that name another host, and a Base URL ending in /v1/, send the key to the Base URL host only', async () => {
	const ids = [
		`//${other}/x`,
		`http://${other}/x`,
		`@${other}`,
		`\\\\${other}\\x`,
		`..%2F..%2F${other}`,
		`https:${other}`,
	];
	const base = new URL(env.sandbox.url);
	const credential = { apiKey: env.sandbox.apiKey, baseUrl: `${base.protocol}//${base.host}/v1/` };
	const runs = await Promise.all([
		runFixture(env.engine, env.sandbox, 'use-case-get', {
			items: ids.map((id) => ({ id })),
			onError: 'continueRegularOutput',
			credential,
		}),
		runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items: [{ name: `http://${other}` }],
		}),
		runFixture(env.engine, env.sandbox, 'sequence-create-json', {
			items: [{}],
			parameters: {
				jsonBody: JSON.stringify({
					name: 'x',
					callback: `http://${other}`,
					url: `http://${other}/v1/sequences`,
				}),
			},
		}),
	]);
	expect(runs.map((run) => run.all.length)).toEqual([ids.length, 1, 1]);
	const requests = await env.sandbox.requests();
	expect(
		requests
			.filter((request) => request.url.startsWith('/v1/use_cases/'))
			.map((request) => decodeURIComponent(request.url.slice(14)))
			.sort(),
	).toEqual([...ids].sort());
	for (const request of requests) {
		expect(request.headers.host).toBe(base.host);
		expect(request.headers['x-api-key']).toBe(env.sandbox.apiKey);
	}
	expect(received).toEqual([]);
});

test('a key pasted into the Base URL is not shown in the setup error of any item, and nothing is sent', async () => {
	const key = env.sandbox.apiKey;
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }, { id: 'c-43' }],
		onError: 'continueRegularOutput',
		credential: { apiKey: key, baseUrl: key },
	});
	expect(run.all.map((item) => typeof item.json.error)).toEqual(['string', 'string']);
	expect(JSON.stringify(run.all)).not.toContain(key);
	expect(await env.sandbox.requests()).toHaveLength(0);
});
