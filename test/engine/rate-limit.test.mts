// Rate-limit handling in n8n's engine against the sandbox: every item gets
// through a service that answers 429, nothing is created twice, only the
// rejected requests are sent again, the node holds back by the service's
// rate-limit headers, and the limits of Rate Limit Handling keep the three
// On Error modes' meaning. Which failed requests are sent again:
// rate-limit-resend.test.mts.
import type { RateLimit, RecordedRequest } from '../harness/sandbox.mts';
import { runFixture, type OnError } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();

const names = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ name: `Sequence ${index}` }));

/** How many requests with each status reached each path. */
function perPath(requests: RecordedRequest[]): Map<string, number[]> {
	const paths = new Map<string, number[]>();
	for (const request of requests)
		paths.set(request.url, [...(paths.get(request.url) ?? []), request.status ?? 0]);
	return paths;
}

const createdNames = (requests: RecordedRequest[]) =>
	requests
		.filter((request) => request.status === 201)
		.map((request) => (JSON.parse(request.body) as { name: string }).name);

describe.each<RateLimit['retryAfter']>(['seconds', 'date', 'none'])(
	'a service limited to 40 per second, Retry-After as %s',
	(retryAfter) => {
		test('every create succeeds, in order, each sequence created exactly once', async () => {
			await env.sandbox.setRateLimit({ rate: 40, burst: 10, retryAfter });
			const items = names(100);
			const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
				items,
				onError: 'continueRegularOutput',
			});

			expect(run.outputs[0].map((item) => item.json.error)).toEqual(items.map(() => undefined));
			expect(run.outputs[0].map((item) => item.json.name)).toEqual(items.map((item) => item.name));
			expect(run.outputs[0].map((item) => item.pairedItem)).toEqual(
				items.map((_, item) => ({ item })),
			);
			const summary = await env.sandbox.summary();
			expect(summary.sequencesCreated).toBe(100);
			expect(summary.duplicateNames).toBe(0);
			expect(summary.byStatus['429']).toBeGreaterThan(0);
			// The first push-back meets the requests already in flight; after it the node paces itself.
			expect(summary.byStatus['429']).toBeLessThanOrEqual(60);
			expect(createdNames(await env.sandbox.requests()).sort()).toEqual(
				items.map((item) => item.name).sort(),
			);
		}, 60_000);
	},
);

test('only rejected requests are sent again: 60 gets give exactly 60 answers of 200, the rest are 429', async () => {
	await env.sandbox.setRateLimit({ rate: 50, burst: 5, retryAfter: 'seconds' });
	const items = Array.from({ length: 60 }, (_, index) => ({ id: index % 2 ? 'uc-1' : 'uc-2' }));
	const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
		items,
		onError: 'continueRegularOutput',
	});
	expect(run.all.map((item) => item.json.id)).toEqual(items.map((item) => item.id));
	const statuses = [...perPath(await env.sandbox.requests()).values()].flat();
	expect(statuses.filter((status) => status === 200)).toHaveLength(60);
	expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
	expect((await env.sandbox.summary()).byStatus).toEqual({ '200': 60, '429': expect.any(Number) });
}, 60_000);

test.each<NonNullable<RateLimit['headers']>>(['ietf', 'x'])(
	"with the service's rate-limit headers (%s), the node holds back when the quota is used up: no 429 after it first ran out",
	async (headers) => {
		await env.sandbox.setRateLimit({ rate: 10, burst: 5, retryAfter: 'seconds', headers });
		const items = Array.from({ length: 80 }, () => ({ id: 'uc-1' }));
		const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
			items,
			onError: 'continueRegularOutput',
		});
		expect(run.all.map((item) => item.json.id)).toEqual(items.map(() => 'uc-1'));
		const statuses = (await env.sandbox.requests()).map((request) => request.status);
		expect(statuses.filter((status) => status === 200)).toHaveLength(80);
		// Once an answer says what is left, the node starts nothing while that is
		// no more than the requests under way, and waits for the refill: only
		// the first requests, sent while slow start had at most 1 + 5 × 0.5 = 3.5
		// in flight, can meet a 429. Without the headers the pacer probes its
		// rate upward and meets one from time to time.
		const late = statuses.slice(8).filter((status) => status === 429);
		expect(late).toEqual([]);
	},
	60_000,
);

describe('limits', () => {
	test('Max Wait: a Retry-After beyond it fails the item at once', async () => {
		await env.sandbox.addFault({
			pathPrefix: '/v1/contacts/c-43/',
			status: 429,
			headers: { 'Retry-After': '5' },
			body: '',
		});
		const started = Date.now();
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'c-42' }, { id: 'c-43' }],
			parameters: { requestOptions: { rateLimitHandling: { settings: { maxWait: 2 } } } },
			onError: 'continueRegularOutput',
		});
		expect(Date.now() - started).toBeLessThan(4000);
		expect(run.all[0].json.id).toBe('c-42');
		expect(run.all[1].json.error).toBe(
			'The outreach service is rate-limiting requests (HTTP 429). It asked to wait 5 seconds (Retry-After: 5). The item was sent once; the wait it asked for is longer than the 2 seconds that Request Options › Rate Limit Handling › Max Wait (Seconds) allows, so it was not sent again.',
		);
	});

	const exhausted =
		'The outreach service is rate-limiting requests (HTTP 429): Too many. It asked to wait 0 seconds (Retry-After: 0). The item was sent 3 times, the most that Request Options › Rate Limit Handling › Max Retries per Item (2) allows.';

	test.each<OnError>(['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'])(
		'Max Retries per Item used up, On Error = %s: the item fails after exactly 1 + retries sends',
		async (mode) => {
			await env.sandbox.addFault({
				pathPrefix: '/v1/contacts/c-43/',
				status: 429,
				headers: { 'Retry-After': '0' },
				body: { message: 'Too many' },
			});
			const items = [{ id: 'c-42' }, { id: 'c-43' }, { id: '42' }];
			const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
				items,
				parameters: { requestOptions: { rateLimitHandling: { settings: { maxRetries: 2 } } } },
				onError: mode,
			});
			const tries = (await env.sandbox.requests()).filter(
				(request) => request.url === '/v1/contacts/c-43/archive',
			);
			expect(tries).toHaveLength(3);
			if (mode === 'stopWorkflow') {
				expect(run.error?.message).toBe(exhausted);
				expect(run.error).toMatchObject({ context: { itemIndex: 1 } });
			} else if (mode === 'continueRegularOutput') {
				expect(
					run.outputs[0].map((item) => [item.pairedItem, item.json.id ?? item.json.error]),
				).toEqual([
					[{ item: 0 }, 'c-42'],
					[{ item: 1 }, exhausted],
					[{ item: 2 }, '42'],
				]);
			} else {
				const [success, failure] = run.outputs;
				expect(success.map((item) => [item.pairedItem, item.json.id])).toEqual([
					[{ item: 0 }, 'c-42'],
					[{ item: 2 }, '42'],
				]);
				expect(failure.map((item) => [item.pairedItem, item.json.error])).toEqual([
					[{ item: 1 }, exhausted],
				]);
			}
		},
	);

	test('On Error = Stop: a pushed-back item that then succeeds does not stop the node', async () => {
		await env.sandbox.addFault({
			pathPrefix: '/v1/contacts/c-43/',
			status: 429,
			headers: { 'Retry-After': '1' },
			times: 1,
		});
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'c-42' }, { id: 'c-43' }],
			onError: 'stopWorkflow',
		});
		expect(run.error).toBeUndefined();
		expect(run.all.map((item) => [item.pairedItem, item.json.id])).toEqual([
			[{ item: 0 }, 'c-42'],
			[{ item: 1 }, 'c-43'],
		]);
	});

	test('Batching still works, with rate-limit handling inside each batch', async () => {
		await env.sandbox.setRateLimit({ rate: 20, burst: 3, retryAfter: 'seconds' });
		const items = names(12);
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items,
			parameters: { requestOptions: { batching: { batch: { batchSize: 4, batchInterval: 50 } } } },
			onError: 'continueRegularOutput',
		});
		expect(run.all.map((item) => item.json.name)).toEqual(items.map((item) => item.name));
		const summary = await env.sandbox.summary();
		expect(summary.maxInFlight).toBeLessThanOrEqual(4);
		expect(summary.sequencesCreated).toBe(12);
		expect(summary.duplicateNames).toBe(0);
		expect(summary.byStatus['429']).toBeGreaterThan(0);
	}, 30_000);
});
