// Rate limits in n8n's engine against the sandbox: every item gets through a service that answers
// 429 (Retry-After in seconds, as a date, or none), only the rejected requests are sent again and
// nothing is created twice; Max Retries per Item fails the item after 1 + retries sends. The
// push-backs are on the k-th request, the same in every run whatever the machine's speed; the
// pace's rules: test/unit/pacer*.test.mts; how near the ideal time: bench/rate-limit.mjs.
import { useEnvironment } from '../harness/setup.mts';
import { factsOf, runFixture } from '../harness/workflows.mts';

const env = useEnvironment();

test.each<[string, () => Record<string, string>]>([
	['seconds', () => ({ 'Retry-After': '1' })],
	['a date', () => ({ 'Retry-After': new Date(Date.now() + 1000).toUTCString() })],
	['none', () => ({})],
])(
	'429 to the 8th and 16th of 20 creates, Retry-After as %s: each created once',
	async (_, headers) => {
		const fault = { method: 'POST', pathPrefix: '/v1/sequences', every: 8, times: 2, status: 429 };
		await env.sandbox.addFault({ ...fault, headers: headers(), body: { message: 'Too many' } });
		const items = Array.from({ length: 20 }, (_, index) => ({ name: `Sequence ${index}` }));
		const run = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', {
			items,
			onError: 'continueRegularOutput',
		});
		expect(
			run.outputs[0].map(({ json, pairedItem }) => [json.error, json.name, pairedItem]),
		).toEqual(items.map(({ name }, item) => [undefined, name, { item }]));
		expect(await env.sandbox.summary()).toMatchObject({
			byStatus: { '201': 20, '429': 2 },
			sequencesCreated: 20,
			duplicateNames: 0,
		});
	},
);

test('Max Retries per Item used up: the item fails after exactly 1 + retries sends', async () => {
	await env.sandbox.addFault({
		pathPrefix: '/v1/contacts/c-43/',
		status: 429,
		headers: { 'Retry-After': '0' },
	});
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-42' }, { id: 'c-43' }, { id: '42' }],
		parameters: { requestOptions: { rateLimitHandling: { settings: { maxRetries: 2 } } } },
		onError: 'continueRegularOutput',
	});
	expect(run.outputs[0].map((item) => item.json.id ?? factsOf(item))).toEqual([
		'c-42',
		{
			statusCode: 429,
			networkError: null,
			timesSent: 3,
			retryAfterSeconds: 0,
			outcome: 'notActed',
		},
		'42',
	]);
	expect((await env.sandbox.summary()).byStatus).toEqual({ '200': 2, '429': 3 });
});
