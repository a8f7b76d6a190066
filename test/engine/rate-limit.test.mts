// Rate-limit handling in n8n's engine against the sandbox: every item gets
// through a service that answers 429, nothing is created twice, only the
// rejected requests are sent again, the service's rate-limit headers hold the
// node back, and the limits of Rate Limit Handling keep the three On Error
// modes' meaning. The push-backs are the sandbox's faults, on the k-th
// request, so that each run meets the same ones whatever the machine's speed;
// how few 429s the node meets against a real-time limit, and how near the
// ideal time it gets, is the benchmark's (bench/rate-limit.mjs, and
// BENCH_RATE_HEADERS for the headers), the pace's rules are unit tests on a
// virtual clock (test/unit/pacer*.test.mts, loop.test.mts). Which failed
// requests are sent again: rate-limit-resend.test.mts.
import type { Fault } from '../harness/sandbox.mts';
import { factsOf, runFixture, type OnError } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';
import { hintsOf } from './re-runs-harness.mts';

const env = useEnvironment();

const names = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ name: `Sequence ${index}` }));

/** The k-th and the 2k-th create are answered 429, with these headers; the others as usual. */
const pushBackTwice = (every: number, headers: Record<string, string>): Fault => ({
	method: 'POST',
	pathPrefix: '/v1/sequences',
	every,
	times: 2,
	status: 429,
	headers,
	body: { message: 'Too many requests' },
});

describe.each<[string, () => Record<string, string>]>([
	['seconds', () => ({ 'Retry-After': '1' })],
	['a date', () => ({ 'Retry-After': new Date(Date.now() + 1000).toUTCString() })],
	['none', () => ({})],
])('a service that answers 429 to the 8th and the 16th create, Retry-After as %s', (_, headers) => {
	test('every create succeeds, in order, each sequence created exactly once; only the two rejected are sent again', async () => {
		await env.sandbox.addFault(pushBackTwice(8, headers()));
		const items = names(20);
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items,
			onError: 'continueRegularOutput',
		});
		expect(run.outputs[0].map((item) => item.json.error)).toEqual(items.map(() => undefined));
		expect(run.outputs[0].map((item) => item.json.name)).toEqual(items.map((item) => item.name));
		expect(run.outputs[0].map((item) => item.pairedItem)).toEqual(
			items.map((_, item) => ({ item })),
		);
		expect(await env.sandbox.summary()).toMatchObject({
			byStatus: { '201': 20, '429': 2 },
			sequencesCreated: 20,
			duplicateNames: 0,
		});
	});
});

test.each<[string, Record<string, string>]>([
	['ietf', { RateLimit: '"default";r=0;t=1', 'RateLimit-Policy': '"default";q=5;w=1' }],
	['x', { 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1' }],
])(
	"the service's rate-limit headers (%s) saying its quota is used up hold the node back as a push-back would, with no 429",
	async (_, headers) => {
		// The first answer, which the node waits for alone (slow start), says nothing is left for a second.
		await env.sandbox.addFault({
			pathPrefix: '/v1/use_cases/',
			times: 1,
			status: 200,
			headers,
			body: { id: 'uc-1', name: 'Onboarding' },
		});
		const items = Array.from({ length: 10 }, () => ({ id: 'uc-1' }));
		const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
			items,
			onError: 'continueRegularOutput',
		});
		expect(run.all.map((item) => item.json.id)).toEqual(items.map(() => 'uc-1'));
		expect((await env.sandbox.summary()).byStatus).toEqual({ '200': 10 });
		expect(hintsOf(run).map((hint) => hint.message)).toContainEqual(
			expect.stringMatching(/pushed back 1 time\b/),
		);
	},
);

describe('limits', () => {
	test('Max Wait: a Retry-After beyond it fails the item at once, sent once', async () => {
		await env.sandbox.addFault({
			pathPrefix: '/v1/contacts/c-43/',
			status: 429,
			headers: { 'Retry-After': '5' },
			body: '',
		});
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'c-42' }, { id: 'c-43' }],
			parameters: { requestOptions: { rateLimitHandling: { settings: { maxWait: 2 } } } },
			onError: 'continueRegularOutput',
		});
		expect(run.all[0].json.id).toBe('c-42');
		expect(factsOf(run.all[1])).toEqual({
			statusCode: 429,
			networkError: null,
			timesSent: 1,
			retryAfterSeconds: 5,
			outcome: 'notActed',
		});
		expect((await env.sandbox.summary()).byStatus).toEqual({ '200': 1, '429': 1 });
	});

	const exhausted = {
		statusCode: 429,
		networkError: null,
		timesSent: 3,
		retryAfterSeconds: 0,
		outcome: 'notActed',
	};

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
				expect(run.error).toMatchObject({ context: { itemIndex: 1 } });
			} else if (mode === 'continueRegularOutput') {
				expect(
					run.outputs[0].map((item) => [item.pairedItem, item.json.id ?? factsOf(item)]),
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
				expect(failure.map((item) => [item.pairedItem, factsOf(item)])).toEqual([
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
		await env.sandbox.addFault(pushBackTwice(5, { 'Retry-After': '0' }));
		const items = names(12);
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items,
			parameters: { requestOptions: { batching: { batch: { batchSize: 4, batchInterval: 50 } } } },
			onError: 'continueRegularOutput',
		});
		expect(run.all.map((item) => item.json.name)).toEqual(items.map((item) => item.name));
		expect(await env.sandbox.maxInFlight()).toBeLessThanOrEqual(4);
		expect(await env.sandbox.summary()).toMatchObject({
			byStatus: { '201': 12, '429': 2 },
			sequencesCreated: 12,
			duplicateNames: 0,
		});
	});
});
