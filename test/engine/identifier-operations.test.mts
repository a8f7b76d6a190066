// Every registered operation on one record by its ID, in n8n's engine: one
// request per item, the ID as one path segment, no body, the service's answer
// passed through; an ID that can't be sent fails its item unsent. The
// sentences: test/unit/validation.test.mts.
import { readFileSync } from 'node:fs';

import { parse } from 'yaml';

import { operations } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';
import { seedData } from '../../sandbox/seed.mts';
import { OPENAPI_DOCUMENT, routesOf } from '../../sandbox/routes.mts';
import { useEnvironment } from '../harness/setup.mts';
import { runFixture } from '../harness/workflows.mts';

const env = useEnvironment();
const routes = routesOf(parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')));
const seed = seedData() as unknown as Record<string, Array<{ id: string }>>;
const byId = operations.flatMap((definition) => {
	const route = routes.find((entry) => entry.operationId === definition.operationId)!;
	const field = definition.properties.find((property) => property.required)!;
	// A seeded record whose ID a path can't carry as it is, where there is one.
	const ids = seed[route.collection]?.map((record) => record.id) ?? [];
	const id = ids.find((candidate) => /[/?#]/.test(candidate)) ?? ids[0];
	return route.kind === 'create'
		? []
		: [{ ...definition, ...route, field: field.name, label: field.displayName, id }];
});
const run = (op: (typeof byId)[number], ids: Array<string | null>) =>
	runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: ids.map((id) => ({ id })),
		parameters: { resource: op.resource, operation: op.operation, [op.field]: '={{ $json.id }}' },
		onError: 'continueRegularOutput',
	});
const kind = (collection: string) => collection as 'contacts' | 'contactLists' | 'useCases';

test('there are operations on one record', () => {
	expect(byId.length).toBeGreaterThanOrEqual(3);
});

describe.each(byId)('$resource › $operation', (op) => {
	test('sends one request per item that can be sent, and passes each answer through', async () => {
		const before = await env.sandbox.record(kind(op.collection), op.id);
		const { all } = await run(op, [` ${op.id}\t`, '   ', '..', 'zz-404', null]);
		const after = await env.sandbox.record(kind(op.collection), op.id);
		expect(after?.status).toBe(op.kind === 'archive' ? 'archived' : before?.status);
		expect(all.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(all[0].json).toEqual(after);
		for (const [index, timesSent, statusCode] of [
			[1, 0, null],
			[2, 0, null],
			[3, 1, 404],
			[4, 0, null],
		] as const) {
			expect(all[index].json.error).toContain(index === 3 ? '"zz-404"' : op.label);
			expect(all[index].json.message).toMatchObject({ timesSent, statusCode, outcome: 'notActed' });
		}
		const requests = await env.sandbox.requests();
		expect(requests.map((request) => [request.method, request.operationId, request.body])).toEqual([
			[op.kind === 'get' ? 'GET' : 'POST', op.operationId, ''],
			[op.kind === 'get' ? 'GET' : 'POST', op.operationId, ''],
		]);
		expect(requests.map((request) => request.headers['x-api-key'])).toEqual([
			env.sandbox.apiKey,
			env.sandbox.apiKey,
		]);
		expect(requests[0].headers['content-type']).toBeUndefined();
		expect(requests[0].url).toMatch(/^\/v1\/[^?#]+$/);
	});

	test('On Error = Stop: the node fails with the failing item, as the service answered', async () => {
		const result = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'zz-404' }],
			parameters: { resource: op.resource, operation: op.operation, [op.field]: '={{ $json.id }}' },
		});
		expect(result.error?.message).toContain('"zz-404"');
		expect(result.error).toMatchObject({ context: { itemIndex: 0 }, httpCode: '404' });
	});
});

test("nulls and fields the contract doesn't list pass through unchanged", async () => {
	const [contact] = byId.filter((op) => op.collection === 'contacts');
	const { all } = await run(contact, ['c-nulls']);
	expect(all[0].json).toEqual(await env.sandbox.record('contacts', 'c-nulls'));
	expect(all[0].json).toMatchObject({ emails: null, extraFieldNotInContract: { kept: true } });
});
