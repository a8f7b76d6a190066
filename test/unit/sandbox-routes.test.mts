// The sandbox serves each operation of the OpenAPI document by a rule on its
// method and path shape; an operation no rule fits stops it, naming the operation.
import { readFileSync } from 'node:fs';

import { parse } from 'yaml';

import { OPENAPI_DOCUMENT, routesOf } from '../../sandbox/routes.mts';

const document = parse(readFileSync(OPENAPI_DOCUMENT, 'utf8'));
const operation = (operationId?: string) => ({
	...(operationId ? { operationId } : {}),
	responses: { '200': { description: 'ok' } },
});

test("the contract's four operations: create, archive and get, each on the collection its path names", () => {
	expect(routesOf(document)).toEqual([
		{ operationId: 'createSequence', kind: 'create', collection: 'sequences' },
		{ operationId: 'archiveContact', kind: 'archive', collection: 'contacts', param: 'id' },
		{ operationId: 'archiveContactList', kind: 'archive', collection: 'contactLists', param: 'id' },
		{ operationId: 'getUseCase', kind: 'get', collection: 'useCases', param: 'useCaseId' },
	]);
});

test('an operation added to the document is routed by its shape, with no list to edit', () => {
	const added = {
		paths: {
			...document.paths,
			'/v1/contacts/{id}': { parameters: [], get: operation('getContact') },
		},
	};
	expect(routesOf(added)).toContainEqual({
		operationId: 'getContact',
		kind: 'get',
		collection: 'contacts',
		param: 'id',
	});
});

test.each([
	[
		'GET /v1/contacts/{id}/history',
		{ '/v1/contacts/{id}/history': { get: operation('getContactHistory') } },
		'GET /v1/contacts/{id}/history (getContactHistory): the sandbox has no rule for it',
	],
	[
		'DELETE /v1/contacts/{id}',
		{ '/v1/contacts/{id}': { delete: operation('deleteContact') } },
		'DELETE /v1/contacts/{id} (deleteContact): the sandbox has no rule for it',
	],
	[
		'an operation without an operationId',
		{ '/v1/contacts/{id}': { get: operation() } },
		'GET /v1/contacts/{id} (no operationId): the sandbox has no rule for it',
	],
])('%s fails, naming the operation', (_name, paths, problem) => {
	expect(() => routesOf({ paths })).toThrow(problem);
});
