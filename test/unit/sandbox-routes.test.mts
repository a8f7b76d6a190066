// The sandbox serves each operation of the OpenAPI document by a rule on its
// method and path shape; an operation no rule fits stops it, naming the operation.
import { readFileSync } from 'node:fs';

import { parse } from 'yaml';

import { operations } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';
import { OPENAPI_DOCUMENT, routesOf } from '../../sandbox/routes.mts';

const document = parse(readFileSync(OPENAPI_DOCUMENT, 'utf8'));
const operation = (operationId?: string) => ({
	...(operationId ? { operationId } : {}),
	responses: {},
});

test('every operation the node registers is served', () => {
	const served = routesOf(document).map((route) => route.operationId);
	expect(
		operations.map((definition) => definition.operationId).filter((id) => !served.includes(id)),
	).toEqual([]);
});

test.each([
	['/v1/contact_lists', 'post', { kind: 'create', collection: 'contactLists' }],
	['/v1/contacts/{id}', 'get', { kind: 'get', collection: 'contacts', param: 'id' }],
	[
		'/v1/use_cases/{useCaseId}/archive',
		'post',
		{ kind: 'archive', collection: 'useCases', param: 'useCaseId' },
	],
])('%s (%s) is routed by its shape, with no list to edit', (path, method, route) => {
	expect(routesOf({ paths: { [path]: { parameters: [], [method]: operation('x') } } })).toEqual([
		{ operationId: 'x', ...route },
	]);
});

test.each([
	[
		'/v1/contacts/{id}/history',
		'get',
		'getContactHistory',
		'GET /v1/contacts/{id}/history (getContactHistory)',
	],
	['/v1/contacts/{id}', 'delete', 'deleteContact', 'DELETE /v1/contacts/{id} (deleteContact)'],
	['/v1/contacts/{id}', 'get', undefined, 'GET /v1/contacts/{id} (no operationId)'],
])('%s (%s) stops the sandbox, naming the operation', (path, method, operationId, named) => {
	expect(() => routesOf({ paths: { [path]: { [method]: operation(operationId) } } })).toThrow(
		`${named}: the sandbox has no rule for it`,
	);
});
