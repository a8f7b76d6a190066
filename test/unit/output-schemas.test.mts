// The output schemas for n8n's schema preview: the form rules of the
// generator, and every field of the contract's response tables (read from
// ../shared/api-contract.md itself, not from the OpenAPI document the schemas
// are generated from) in the schema of its operation, with its type.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from 'yaml';

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

const here = path.dirname(fileURLToPath(import.meta.url));

const root = path.resolve(here, '..', '..');
const document = parse(
	readFileSync(path.join(root, 'openapi', 'outreach-sequences.openapi.yaml'), 'utf8'),
);
const schemas: Record<string, Schema> = Object.fromEntries(
	operations.map((definition) => [
		`${definition.resource}/${definition.operation}`,
		outputSchema(document, definition.operationId),
	]),
);

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
			Object.keys(schemas).sort(),
		);
	});

	test("each operation's output is the success response of its operationId, and a missing or ambiguous one fails the build", () => {
		expect(operations.map((definition) => definition.operationId).sort()).toEqual([
			'archiveContact',
			'archiveContactList',
			'createSequence',
			'getUseCase',
		]);
		expect(schemas['sequence/create']).toEqual({
			...previewForm(document, { $ref: '#/components/schemas/Sequence' }),
			version: 1,
		});
		expect(schemas['contact/archive']).toEqual({
			...previewForm(document, { $ref: '#/components/schemas/Contact' }),
			version: 1,
		});
		expect(() => outputSchema(document, 'getContact')).toThrow(
			'The OpenAPI document has no operation getContact',
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

// ── the contract's own tables ───────────────────────────────────────────────
interface ContractField {
	name: string;
	type: string;
	presence: string;
}

/**
 * The fields of one part of the contract: the table under `heading`; or,
 * written inline as `name` (type, presence), the first line under `heading`
 * (`inline`) or the line starting with `lineStart`.
 */
function contractFields(
	contract: string,
	part: { heading?: string; inline?: boolean; lineStart?: string },
): ContractField[] {
	const lines =
		part.heading === undefined ? contract.split('\n') : afterHeading(contract, part.heading);
	if (part.lineStart || part.inline) {
		const line = part.inline
			? lines.find((text) => text.trim() !== '')
			: lines.find((text) => text.startsWith(part.lineStart!));
		if (!line) throw new Error(`No line for ${JSON.stringify(part)}`);
		return [...line.matchAll(/`([\w$]+)` \((.+?), ([RO](?:, N)?)\)/g)].map(
			([, name, type, presence]) => ({ name, type, presence }),
		);
	}
	const table = lines.slice(lines.findIndex((line) => line.startsWith('|')));
	return table
		.slice(
			0,
			table.findIndex((line) => !line.startsWith('|')),
		)
		.slice(2)
		.map((line) => line.split('|').map((cell) => cell.trim()))
		.map(([, name, type, presence]) => ({
			name: name.replace(/`/g, ''),
			type,
			presence: presence ?? '',
		}));
}

function afterHeading(contract: string, heading: string): string[] {
	const start = contract.indexOf(`\n${heading}\n`);
	if (start < 0) throw new Error(`No heading ${heading}`);
	return contract.slice(start + heading.length + 2).split('\n');
}

/** The JSON Schema type the contract's words name. */
function schemaTypeOf(words: string): string {
	if (/^list\b/.test(words)) return 'array';
	if (/^(object|map)\b/.test(words) || /^[A-Z]\w+$/.test(words)) return 'object';
	if (/^enum\b/.test(words)) return 'string';
	return words.split(/[ (]/)[0];
}

/** Each part of the contract's response tables, with where its fields belong in the output schemas. */
function contractParts(contract: string) {
	// "Script objects in responses also carry these string-valued properties"; the table's second column is a note.
	const scriptCommon = contractFields(contract, {
		heading: '### Fields common to every script object in a response',
	}).map((field) => ({
		name: field.name,
		type: 'string',
		presence: 'O',
	}));
	const scriptKinds = /Kinds: (.+)\./.exec(contract)![1].split(', ');
	const schedule = 'sequence/create:schedules[0]';
	const parts: Array<{ title: string; at: string[]; fields: ContractField[] }> = [
		{
			title: 'Sequence',
			at: ['sequence/create:'],
			fields: contractFields(contract, { heading: '### Sequence (response of create)' }),
		},
		{
			title: 'Schedule entry in a response',
			at: [schedule],
			fields: contractFields(contract, { heading: '### Schedule entry in a response' }),
		},
		{
			title: 'common script fields',
			at: ['phoneScript', 'emailScript', 'textScript', 'blasterScript', 'scripts[0]'].map(
				(script) => `${schedule}.${script}`,
			),
			fields: scriptCommon,
		},
		{
			title: 'PhoneScript',
			at: [`${schedule}.phoneScript`, `${schedule}.scripts[0]`],
			fields: contractFields(contract, { heading: '### PhoneScript' }),
		},
		{
			title: 'UseCaseAssociation',
			at: [
				`${schedule}.phoneScript.useCaseAssociations[0]`,
				`${schedule}.scripts[0].useCaseAssociations[0]`,
			],
			fields: contractFields(contract, { heading: 'UseCaseAssociation:' }),
		},
		{
			title: 'Faq',
			at: [`${schedule}.phoneScript.faqs[0]`],
			fields: contractFields(contract, { lineStart: 'Faq:' }),
		},
		{
			title: 'PostCallScript',
			at: [`${schedule}.phoneScript.postCallScripts[0]`],
			fields: contractFields(contract, { lineStart: 'PostCallScript:' }),
		},
		{
			title: 'EmailScript',
			at: [`${schedule}.emailScript`, `${schedule}.scripts[0]`],
			fields: contractFields(contract, { heading: '### EmailScript', inline: true }),
		},
		{
			title: 'TextScript',
			at: [`${schedule}.textScript`],
			fields: contractFields(contract, { heading: '### TextScript', inline: true }),
		},
		{
			title: 'BlasterScript',
			at: [`${schedule}.blasterScript`],
			fields: contractFields(contract, { heading: '### BlasterScript', inline: true }),
		},
		{
			title: 'Contact',
			at: ['contact/archive:'],
			fields: contractFields(contract, { heading: '### Contact' }),
		},
		{
			title: 'PhoneNumber',
			at: ['contact/archive:phoneNumbers[0]'],
			fields: contractFields(contract, { lineStart: 'PhoneNumber:' }),
		},
		{
			title: 'Contact list',
			at: ['contactList/archive:'],
			fields: contractFields(contract, { heading: '### Contact list' }),
		},
		{
			title: 'Use case',
			at: ['useCase/get:'],
			fields: contractFields(contract, { heading: '### Use case' }),
		},
		{
			title: 'UseCaseAction',
			at: ['useCase/get:actions[0]'],
			fields: contractFields(contract, { lineStart: 'UseCaseAction:' }),
		},
	];
	return { parts, scriptKinds };
}

/** The schema at 'operation:path', following properties and [0] for array items. */
function schemaAt(location: string): Schema {
	const [name, route] = location.split(':');
	let schema = schemas[name];
	for (const step of route.match(/[\w$]+|\[0\]/g) ?? []) {
		schema = (
			step === '[0]' ? schema.items : (schema.properties as Record<string, Schema>)[step]
		) as Schema;
		if (!schema) throw new Error(`${location}: no ${step}`);
	}
	return schema;
}

// The service's contract is not part of this repository: it lies beside it
// (../shared, as in CI), or where CONTRACT_DOCUMENT says. Without it, this
// check is skipped with one line saying so.
const contractFile =
	process.env.CONTRACT_DOCUMENT ?? path.join(root, '..', 'shared', 'api-contract.md');
const contract = existsSync(contractFile) ? readFileSync(contractFile, 'utf8') : undefined;
if (!contract && process.env.CONTRACT_DOCUMENT)
	throw new Error(`CONTRACT_DOCUMENT names ${contractFile}, which does not exist.`);

if (!contract) {
	process.stderr.write(
		`Skipped: the check of the output schemas against the service's contract, as ${path.relative(root, contractFile)} is not there (CONTRACT_DOCUMENT can name it).\n`,
	);
	test.skip("the contract's response fields: the contract document is not beside this repository", () => {});
} else {
	const { parts, scriptKinds } = contractParts(contract);
	describe("the contract's response fields", () => {
		test('the tables were read', () => {
			for (const part of parts)
				expect([part.title, part.fields.length > 0]).toEqual([part.title, true]);
			expect(scriptKinds).toHaveLength(4);
			expect(
				parts.find((part) => part.title === 'PhoneScript')!.fields.map((field) => field.name),
			).toContain('knowledgeBase');
		});

		describe.each(parts)('$title', ({ at, fields }) => {
			test.each(at)(
				'in %s: every field, with its type, whether it may be null, and whether it is required',
				(location) => {
					const schema = schemaAt(location);
					const inKindUnion = location.endsWith('scripts[0]');
					for (const field of fields) {
						const property = (schema.properties as Record<string, Schema>)[field.name];
						expect([field.name, property?.type]).toEqual([field.name, schemaTypeOf(field.type)]);
						expect([field.name, property.nullable === true]).toEqual([
							field.name,
							field.presence.includes('N'),
						]);
						// The kinds' union lists every kind's fields, so none is required there; the oneOf beside it keeps them.
						const required = ((schema.required ?? []) as string[]).includes(field.name);
						expect([field.name, required]).toEqual([
							field.name,
							!inKindUnion && field.presence.startsWith('R'),
						]);
						const values = [...field.type.matchAll(/`(\w+)`/g)].map((match) => match[1]);
						if (field.type.startsWith('enum'))
							expect([field.name, property.enum]).toEqual([field.name, values]);
						else if (field.name === '$type' && inKindUnion)
							expect([...(property.enum as string[])].sort()).toEqual([...scriptKinds].sort());
						else if (field.name === '$type') expect(scriptKinds).toContain(property.const);
						else expect([field.name, property.enum]).toEqual([field.name, undefined]);
					}
				},
			);
		});
	});
}
