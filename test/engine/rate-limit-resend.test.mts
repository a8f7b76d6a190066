// What is sent again after a failure, in n8n's engine against the sandbox:
// what the service can't have acted on, or a read (a get after a 502, a 503,
// a 504, a reset or a timeout; a create after a 429, or a 503 with
// Retry-After), never a create or an archive it may have carried out (after a
// 3xx or a 503 without Retry-After too); and a request whose connection was
// refused, once the service is back. Rate-limit pacing: rate-limit.test.mts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { RELEASE } from '../harness/sandbox.mts';
import { factsOf, runFixture } from '../harness/workflows.mts';
import { startOver, useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();

describe('what is sent again', () => {
	test.each([
		[
			'a create after a reset',
			'sequence-create-fields',
			{ name: 'Once' },
			{ pathPrefix: '/v1/sequences', drop: 'before-response' as const },
			1,
		],
		[
			'a create after a 500',
			'sequence-create-fields',
			{ name: 'Once' },
			{ pathPrefix: '/v1/sequences', status: 500 },
			1,
		],
		[
			'a create after a 502',
			'sequence-create-fields',
			{ name: 'Once' },
			{ pathPrefix: '/v1/sequences', status: 502 },
			1,
		],
		[
			'a create after a 504',
			'sequence-create-fields',
			{ name: 'Once' },
			{ pathPrefix: '/v1/sequences', status: 504 },
			1,
		],
		[
			'an archive after a 502',
			'contact-archive',
			{ id: 'c-42' },
			{ pathPrefix: '/v1/contacts/', status: 502 },
			1,
		],
		[
			'an archive after a reset',
			'contact-archive',
			{ id: 'c-42' },
			{ pathPrefix: '/v1/contacts/', drop: 'before-response' as const },
			1,
		],
		// Without Retry-After, a gateway may answer 503 after it passed the create on (issue 43).
		[
			'a create after a 503 without Retry-After',
			'sequence-create-fields',
			{ name: 'Once' },
			{ pathPrefix: '/v1/sequences', status: 503, afterWrite: true },
			1,
		],
		[
			'a create after a 303',
			'sequence-create-fields',
			{ name: 'Once' },
			{
				pathPrefix: '/v1/sequences',
				status: 303,
				afterWrite: true,
				headers: { Location: '/v1/sequences/elsewhere' },
			},
			1,
		],
		[
			'a create after a 503 with Retry-After',
			'sequence-create-fields',
			{ name: 'Again' },
			{ pathPrefix: '/v1/sequences', status: 503, headers: { 'Retry-After': '1' } },
			2,
		],
		[
			'a get after a 503 without Retry-After',
			'use-case-get',
			{ id: 'uc-1' },
			{ pathPrefix: '/v1/use_cases/', status: 503 },
			2,
		],
		[
			'a create after a 429',
			'sequence-create-fields',
			{ name: 'Again' },
			{ pathPrefix: '/v1/sequences', status: 429, headers: { 'Retry-After': '1' } },
			2,
		],
		[
			'a get after a 502',
			'use-case-get',
			{ id: 'uc-1' },
			{ pathPrefix: '/v1/use_cases/', status: 502 },
			2,
		],
		[
			'a get after a 504',
			'use-case-get',
			{ id: 'uc-1' },
			{ pathPrefix: '/v1/use_cases/', status: 504 },
			2,
		],
		[
			'a get after a reset',
			'use-case-get',
			{ id: 'uc-1' },
			{ pathPrefix: '/v1/use_cases/', drop: 'before-response' as const },
			2,
		],
	])('%s', async (_, fixture, item, fault, sends) => {
		await env.sandbox.addFault({ ...fault, times: 1 });
		const run = await runFixture(env.engine, env.sandbox, fixture, {
			items: [item],
			onError: 'continueRegularOutput',
		});
		const requests = await env.sandbox.requests();
		expect(requests).toHaveLength(sends);
		if (sends === 1) {
			expect(run.all[0].json.error).toEqual(expect.any(String));
		} else {
			expect(run.all[0].json.error).toBeUndefined();
			expect(requests[1].status).toBe(fixture === 'sequence-create-fields' ? 201 : 200);
		}
		expect((await env.sandbox.summary()).duplicateNames).toBe(0);
	});

	test('a get after a timeout is sent again; a create is not', async () => {
		// The first get is held until the second arrives: it times out whatever the machine's speed. The
		// second is answered at once, within the limit: the one answer in this file with a time to keep.
		await env.sandbox.addFault({
			pathPrefix: '/v1/use_cases/',
			holdUntil: '/v1/use_cases/',
			times: 1,
		});
		const get = await runFixture(env.engine, env.sandbox, 'use-case-get', {
			items: [{ id: 'uc-1' }],
			parameters: { requestOptions: { timeout: 2000 } },
			onError: 'continueRegularOutput',
		});
		expect(get.all[0].json.id).toBe('uc-1');
		expect(await env.sandbox.requests()).toHaveLength(2);

		await startOver(env);
		await env.sandbox.addFault({ pathPrefix: '/v1/sequences', holdUntil: RELEASE, times: 1 });
		const create = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items: [{ name: 'Slow' }],
			parameters: { requestOptions: { timeout: 300 } },
			onError: 'continueRegularOutput',
		});
		expect(factsOf(create.all[0])).toMatchObject({
			networkError: 'timeout',
			timesSent: 1,
			outcome: 'mayHaveActed',
		});
		expect(await env.sandbox.requests()).toHaveLength(1);
	});
});

test('a refused connection after the service has answered is sent again once it is back', async () => {
	// A stand-in that answers the first request, stops listening (connections
	// are refused), and listens again on the same port a moment later.
	let served: string[] = [];
	const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
		served.push(req.url ?? '');
		res.writeHead(200, { 'Content-Type': 'application/json' });
		res.end(
			JSON.stringify({ id: decodeURIComponent((req.url ?? '').split('/')[3]), status: 'archived' }),
		);
		if (served.length === 1) {
			server.close();
			server.closeAllConnections();
			setTimeout(() => server.listen(port, '127.0.0.1'), 300);
		}
	};
	const server = http.createServer(answer);
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
		served = [];
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
});
