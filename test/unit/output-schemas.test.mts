// The output schemas for n8n's schema preview: the form rules of the
// generator, the output of each operation, and what n8n's editor reads of it.
// The contract's response tables: output-schemas-contract.test.mts.
import {
	nodeOperations,
	outputSchema,
	previewForm,
	singleType,
} from '../../scripts/output-schemas.mts';
import type { Schema } from '../../scripts/output-schemas.mts';
import {
	operations,
	OutreachSequences,
} from '../../nodes/OutreachSequences/OutreachSequences.node.ts';

import { document, schemas } from './output-schemas-helpers.mts';

describe('the preview form', () => {
	test('a type list with null becomes one type and nullable', () => {
		expect(singleType(['array', 'null'])).toEqual({ type: 'array', nullable: true });
		expect(singleType(['string', 'null'])).toEqual({ type: 'string', nullable: true });
		expect(singleType('integer')).toEqual({ type: 'integer' });
		expect(() => singleType(['string', 'integer'])).toThrow(/one type and 'null'/);
	});

	test('an enum without a type gets the type of its values', () => {
		expect(singleType(undefined, ['a', 'b'])).toEqual({ type: 'string' });
		expect(singleType(undefined, ['a', null])).toEqual({ type: 'string', nullable: true });
	});

	test('refs are inlined, allOf is merged, and a oneOf of kinds becomes one object that keeps the oneOf', () => {
		const doc = {
			paths: {},
			components: {
				schemas: {
					Common: {
						type: 'object',
						properties: { $type: { type: 'string' }, id: { type: 'string' } },
					},
					A: {
						allOf: [
							{ $ref: '#/components/schemas/Common' },
							{
								type: 'object',
								required: ['a'],
								properties: { $type: { const: 'A' }, a: { type: ['string', 'null'] } },
							},
						],
					},
					B: {
						allOf: [
							{ $ref: '#/components/schemas/Common' },
							{ type: 'object', properties: { $type: { const: 'B' }, b: { type: 'integer' } } },
						],
					},
				},
			},
		};
		const a = previewForm(doc, { $ref: '#/components/schemas/A' });
		expect(a).toEqual({
			type: 'object',
			properties: {
				$type: { type: 'string', const: 'A' },
				id: { type: 'string' },
				a: { type: 'string', nullable: true },
			},
			required: ['a'],
		});
		const list = previewForm(doc, {
			type: ['array', 'null'],
			items: { oneOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] },
		});
		expect(list.type).toBe('array');
		expect(list.nullable).toBe(true);
		const item = list.items as Schema;
		expect(item.type).toBe('object');
		expect(item.properties).toEqual({
			$type: { type: 'string', enum: ['A', 'B'], description: 'The script kind: A, B' },
			id: { type: 'string' },
			a: { type: 'string', nullable: true, description: 'A only' },
			b: { type: 'integer', description: 'B only' },
		});
		expect(item.oneOf).toEqual([a, previewForm(doc, { $ref: '#/components/schemas/B' })]);
	});

	test('every operation the node offers has an output, and nothing else does', () => {
		expect(nodeOperations(new OutreachSequences().description.properties).sort()).toEqual(
			operations.map(({ resource, operation }) => `${resource}/${operation}`).sort(),
		);
	});

	test("each operation's output is the success response of its operationId, and a missing or ambiguous one fails the build", () => {
		expect(schemas['sequence/create']).toEqual({
			...previewForm(document, { $ref: '#/components/schemas/Sequence' }),
			version: 1,
		});
		expect(schemas['contact/archive']).toEqual({
			...previewForm(document, { $ref: '#/components/schemas/Contact' }),
			version: 1,
		});
		expect(() => outputSchema(document, 'noSuchOperation')).toThrow(
			'The OpenAPI document has no operation noSuchOperation',
		);
		const twoAnswers = structuredClone(document);
		twoAnswers.paths['/v1/use_cases/{useCaseId}'].get.responses['203'] =
			twoAnswers.paths['/v1/use_cases/{useCaseId}'].get.responses['200'];
		expect(() => outputSchema(twoAnswers, 'getUseCase')).toThrow(
			'getUseCase has 2 success responses',
		);
	});

	// What n8n 2.41.1's editor reads (getSchemaForJsonSchema): `type` as one
	// string, `properties` of an object, `items` of an array; nothing else.
	test.each(Object.keys(schemas))(
		'%s: every field the editor walks to has one type string, and objects and arrays can be opened',
		(name) => {
			const problems: string[] = [];
			const walk = (schema: Schema, at: string) => {
				if (typeof schema.type !== 'string')
					problems.push(`${at}: type ${JSON.stringify(schema.type)}`);
				if ('$ref' in schema || 'allOf' in schema) problems.push(`${at}: $ref or allOf`);
				if (schema.type === 'array') {
					if (typeof schema.items !== 'object') problems.push(`${at}: an array without items`);
					else walk(schema.items as Schema, `${at}[0]`);
				}
				for (const [key, child] of Object.entries(
					(schema.properties ?? {}) as Record<string, Schema>,
				))
					walk(child, `${at}.${key}`);
			};
			walk(schemas[name], '$json');
			expect(problems).toEqual([]);
			expect(schemas[name].version).toBe(1);
		},
	);
});
