// The output schemas for n8n's schema preview: one per registered operation,
// its operationId's success response, in the form n8n's editor reads. Their
// fields against the contract's tables: output-schemas-contract.test.mts;
// the sandbox's answers against them: test/engine/output-schemas.test.mts.
import { nodeOperations, outputSchema } from '../../scripts/output-schemas.mts';
import type { Schema } from '../../scripts/output-schemas.mts';
import {
	operations,
	OutreachSequences,
} from '../../nodes/OutreachSequences/OutreachSequences.node.ts';

import { document, schemas } from './output-schemas-helpers.mts';

describe('the output schemas', () => {
	test('every operation the node offers has an output, and nothing else does', () => {
		expect(nodeOperations(new OutreachSequences().description.properties).sort()).toEqual(
			operations.map(({ resource, operation }) => `${resource}/${operation}`).sort(),
		);
	});

	test('an operationId the document lacks, or one with two success responses, fails the build', () => {
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
