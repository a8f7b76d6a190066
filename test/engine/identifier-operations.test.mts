// Archive a contact, archive a contact list, get a use case: one identifier in
// the path, no body, no query string, the service's answer passed through; an
// identifier that can't be sent fails its item unsent. What each failure
// says: test/unit/texts-http.test.mts, validation.test.mts.
import { runFixture } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();

/** A failure's facts: sent `timesSent` times, with `statusCode`; the service did not act. */
const notActed = (statusCode: number | null, timesSent: number) => ({
	statusCode,
	networkError: null,
	timesSent,
	retryAfterSeconds: null,
	outcome: 'notActed',
});

const operations = [
	{
		fixture: 'contact-archive',
		field: 'contactId',
		label: 'Contact ID',
		method: 'POST',
		route: (segment: string) => `/v1/contacts/${segment}/archive`,
		kind: 'contacts' as const,
		existing: 'c-42',
		encoded: { id: 'a/b?c#d', segment: 'a%2Fb%3Fc%23d' },
		archives: true,
	},
	{
		fixture: 'contact-list-archive',
		field: 'contactListId',
		label: 'Contact List ID',
		method: 'POST',
		route: (segment: string) => `/v1/contact_lists/${segment}/archive`,
		kind: 'contactLists' as const,
		existing: 'list-1',
		encoded: { id: 'list/3', segment: 'list%2F3' },
		archives: true,
	},
	{
		fixture: 'use-case-get',
		field: 'useCaseId',
		label: 'Use Case ID',
		method: 'GET',
		route: (segment: string) => `/v1/use_cases/${segment}`,
		kind: 'useCases' as const,
		existing: 'uc-1',
		encoded: undefined,
		archives: false,
	},
];

describe.each(operations)('$fixture', (op) => {
	test('sends one request per item, with the key, no body and no query, and outputs the answer unchanged', async () => {
		const before = await env.sandbox.record(op.kind, op.existing);
		const run = await runFixture(env.engine, env.sandbox, op.fixture, {
			items: [{ id: op.existing }],
		});

		const requests = await env.sandbox.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe(op.method);
		expect(requests[0].url).toBe(op.route(op.existing));
		expect(requests[0].headers['x-api-key']).toBe(env.sandbox.apiKey);
		expect(requests[0].body).toBe('');
		expect(requests[0].headers['content-type']).toBeUndefined();
		expect(requests[0].status).toBe(200);

		const after = await env.sandbox.record(op.kind, op.existing);
		expect(run.outputs).toHaveLength(1);
		expect(run.outputs[0]).toEqual([{ json: after, pairedItem: { item: 0 } }]);
		if (op.archives) {
			expect(before?.status).toBe('active');
			expect(after?.status).toBe('archived');
		} else {
			expect(after).toEqual(before);
		}
	});

	test('trims the identifier and accepts a number from an expression', async () => {
		await runFixture(env.engine, env.sandbox, op.fixture, {
			items: [{ id: `  ${op.existing}\t` }, { id: 42 }],
		});
		const urls = (await env.sandbox.requests()).map((request) => request.url).sort();
		expect(urls).toEqual([op.route('42'), op.route(op.existing)].sort());
	});

	if (op.encoded) {
		const { id, segment } = op.encoded;
		test('encodes the identifier as one path segment, which the service decodes back', async () => {
			const run = await runFixture(env.engine, env.sandbox, op.fixture, { items: [{ id }] });
			const [request] = await env.sandbox.requests();
			expect(request.url).toBe(op.route(segment));
			expect(run.all[0].json.id).toBe(id);
		});
	}

	test('an empty identifier is an error item that names the field, and nothing is sent for it', async () => {
		const run = await runFixture(env.engine, env.sandbox, op.fixture, {
			items: [{ id: '   ' }, { other: 1 }, { id: '..' }, { id: op.existing }],
			onError: 'continueRegularOutput',
		});
		const [emptyText, missing, dots, ok] = run.all;
		for (const item of [emptyText, missing, dots]) {
			expect(item.json.error).toContain(op.label);
			expect(item.json.message).toEqual(notActed(null, 0));
		}
		expect(missing.json.error).toBe(emptyText.json.error);
		expect(dots.json.error).toContain('".."');
		expect(ok.json.id).toBe(op.existing);
		expect((await env.sandbox.requests()).map((request) => request.url)).toEqual([
			op.route(op.existing),
		]);
	});

	test('an unknown identifier gives an error item that names it, with its facts', async () => {
		const run = await runFixture(env.engine, env.sandbox, op.fixture, {
			items: [{ id: 'zz-404' }],
			onError: 'continueRegularOutput',
		});
		expect(run.all).toEqual([
			// A 404 sent once: the service did not act on it.
			expect.objectContaining({
				json: { error: expect.stringContaining('"zz-404"'), message: notActed(404, 1) },
				pairedItem: { item: 0 },
			}),
		]);
	});

	test('On Error = Stop: the node fails with the message of the failing item', async () => {
		const run = await runFixture(env.engine, env.sandbox, op.fixture, {
			items: [{ id: 'zz-404' }],
		});
		expect(run.error?.message).toContain('"zz-404"');
		expect(run.error).toMatchObject({ context: { itemIndex: 0 }, httpCode: '404' });
		expect(run.nodeError('Outreach Sequences')?.message).toBe(run.error?.message);
	});
});

test('nulls and fields the contract does not list pass through unchanged', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: [{ id: 'c-nulls' }],
	});
	const stored = await env.sandbox.record('contacts', 'c-nulls');
	expect(stored).toMatchObject({
		firstName: null,
		emails: null,
		additionalData: null,
		extraFieldNotInContract: { kept: true },
	});
	expect(run.all[0].json).toEqual(stored);
});

test('use case actions, with their nulls, pass through', async () => {
	const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
		items: [{ id: 'uc-1' }, { id: 'uc-2' }],
	});
	expect(run.all.map((item) => item.json)).toEqual([
		await env.sandbox.record('useCases', 'uc-1'),
		await env.sandbox.record('useCases', 'uc-2'),
	]);
	expect(run.all[1].json).toMatchObject({ title: null, actions: null });
});
