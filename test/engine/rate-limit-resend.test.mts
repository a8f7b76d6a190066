// What is sent again after a failure, in n8n's engine against the sandbox (each status: loop-faults.test.mts): what the service can't
// have acted on (a create after a 429, or a 503 with Retry-After), and a read (a get after a 5xx, a
// reset or a timeout); never a create or an archive it may have carried out (after a 5xx, a reset,
// a timeout or a 3xx); and a request whose connection was refused, once the service is back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Fault } from '../harness/sandbox.mts';
import { useEnvironment } from '../harness/setup.mts';
import { runFixture } from '../harness/workflows.mts';

const env = useEnvironment();

const OPERATIONS = {
	create: ['sequence-create-fields', { name: 'Once' }, '/v1/sequences'],
	archive: ['contact-archive', { id: 'c-42' }, '/v1/contacts/'],
	get: ['use-case-get', { id: 'uc-1' }, '/v1/use_cases/'],
} as const;
/** Each fault of the first request; a timeout's is held until the next request arrives. */
const FAULTS: Record<string, (path: string) => Fault> = {
	reset: () => ({ drop: 'before-response' }),
	'502': () => ({ status: 502 }),
	// Without Retry-After, a gateway may answer 503 after it passed the request on (issue 43).
	'503': () => ({ status: 503, afterWrite: true }),
	'303': () => ({ status: 303, afterWrite: true, headers: { Location: '/v1/sequences/x' } }),
	'503 with Retry-After': () => ({ status: 503, headers: { 'Retry-After': '1' } }),
	'429': () => ({ status: 429, headers: { 'Retry-After': '1' } }),
	timeout: (path) => ({ holdUntil: path }),
};

test.each<[keyof typeof OPERATIONS, string, number]>([
	['create', 'reset', 1],
	['create', '503', 1],
	['create', '303', 1],
	['create', 'timeout', 1],
	['create', '503 with Retry-After', 2],
	['create', '429', 2],
	['archive', '502', 1],
	['get', '503', 2],
	['get', '502', 2],
	['get', 'reset', 2],
	['get', 'timeout', 2],
])('a %s after a %s is sent %i time(s)', async (operation, fault, sends) => {
	const [fixture, item, path] = OPERATIONS[operation];
	await env.sandbox.addFault({ pathPrefix: path, ...FAULTS[fault](path), times: 1 });
	const run = await runFixture(env.engine, env.sandbox, fixture, {
		items: [item],
		// The one answer here with a time to keep: a get's second try, sent after the first timed out.
		parameters:
			fault === 'timeout' ? { requestOptions: { timeout: operation === 'get' ? 2000 : 300 } } : {},
		onError: 'continueRegularOutput',
	});
	const requests = await env.sandbox.requests();
	expect(requests).toHaveLength(sends);
	expect(run.all[0].json.error === undefined).toBe(sends === 2);
	expect((await env.sandbox.summary()).duplicateNames).toBe(0);
});

test('a refused connection after the service has answered is sent again once it is back', async () => {
	// A stand-in that answers the first request, stops listening, and listens again a moment later.
	const served: string[] = [];
	const server = http.createServer((req, res) => {
		served.push(req.url ?? '');
		res.writeHead(200, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify({ id: decodeURIComponent((req.url ?? '').split('/')[3]) }));
		if (served.length > 1) return;
		server.close();
		server.closeAllConnections();
		setTimeout(() => server.listen(port, '127.0.0.1'), 300);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	try {
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'first' }, { id: 'second' }],
			parameters: { requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 0 } } } },
			onError: 'continueRegularOutput',
			credential: { apiKey: env.sandbox.apiKey, baseUrl: `http://127.0.0.1:${port}` },
		});
		expect(run.all.map((item) => item.json.id ?? item.json.error)).toEqual(['first', 'second']);
		expect(served).toEqual(['/v1/contacts/first/archive', '/v1/contacts/second/archive']);
	} finally {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
});
