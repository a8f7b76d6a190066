// Every field of the contract's response tables (read from
// ../shared/api-contract.md itself, not from the OpenAPI document the schemas
// are generated from) in the output schema of its operation, with its type,
// whether it may be null and whether it is required.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Schema } from '../../scripts/output-schemas.mts';
import { root, schemas } from './output-schemas-helpers.mts';

interface ContractField {
	name: string;
	type: string;
	presence: string;
}

/** The fields after `marker` (a heading, or a line such as `Faq:`): a table, or inline as `name` (type, presence). */
function fieldsAfter(lines: string[], marker: string): ContractField[] {
	const at = lines.findIndex(
		(line) => line === marker || (marker.endsWith(':') && line.startsWith(marker)),
	);
	if (at < 0) throw new Error(`No ${marker} in the contract`);
	const after = lines.slice(at + 1);
	const next = after.find((line) => line.trim() !== '') ?? '';
	const inline = lines[at].includes('`') ? lines[at] : next.startsWith('`') ? next : undefined;
	if (inline)
		return [...inline.matchAll(/`([\w$]+)` \((.+?), ([RO](?:, N)?)\)/g)].map(
			([, name, type, presence]) => ({
				name,
				type,
				presence,
			}),
		);
	const table = after.slice(after.findIndex((line) => line.startsWith('|')));
	return table
		.slice(
			2,
			table.findIndex((line) => !line.startsWith('|')),
		)
		.map((line) => line.split('|').map((cell) => cell.trim()))
		.map(([, name, type, presence]) => ({
			name: name.replace(/`/g, ''),
			type,
			presence: presence ?? '',
		}));
}

/** The JSON Schema type the contract's words name. */
function schemaTypeOf(words: string): string {
	if (/^list\b/.test(words)) return 'array';
	if (/^(object|map)\b/.test(words) || /^[A-Z]\w+$/.test(words)) return 'object';
	if (/^enum\b/.test(words)) return 'string';
	return words.split(/[ (]/)[0];
}

const S = 'sequence/create:schedules[0]';
const SCRIPTS = ['phoneScript', 'emailScript', 'textScript', 'blasterScript', 'scripts[0]'];
/** Each part of the contract's response tables, and where its fields belong in the output schemas. */
const PARTS: Array<[string, ...string[]]> = [
	['### Sequence (response of create)', 'sequence/create:'],
	['### Schedule entry in a response', S],
	['### PhoneScript', `${S}.phoneScript`, `${S}.scripts[0]`],
	[
		'UseCaseAssociation:',
		`${S}.phoneScript.useCaseAssociations[0]`,
		`${S}.scripts[0].useCaseAssociations[0]`,
	],
	['Faq:', `${S}.phoneScript.faqs[0]`],
	['PostCallScript:', `${S}.phoneScript.postCallScripts[0]`],
	['### EmailScript', `${S}.emailScript`, `${S}.scripts[0]`],
	['### TextScript', `${S}.textScript`],
	['### BlasterScript', `${S}.blasterScript`],
	['### Contact', 'contact/archive:'],
	['PhoneNumber:', 'contact/archive:phoneNumbers[0]'],
	['### Contact list', 'contactList/archive:'],
	['### Use case', 'useCase/get:'],
	['UseCaseAction:', 'useCase/get:actions[0]'],
];

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

// The service's contract lies beside this repository (../shared, as in CI),
// or where CONTRACT_DOCUMENT says; without it, this check is skipped, saying so.
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
	const lines = contract.split('\n');
	const scriptKinds = /Kinds: (.+)\./.exec(contract)![1].split(', ');
	// "Script objects in responses also carry these string-valued properties"; the table's second column is a note.
	const common = fieldsAfter(lines, '### Fields common to every script object in a response').map(
		({ name }) => ({ name, type: 'string', presence: 'O' }),
	);
	const parts = [
		...PARTS.map(([marker, ...at]) => ({ marker, at, fields: fieldsAfter(lines, marker) })),
		{
			marker: 'common script fields',
			at: SCRIPTS.map((script) => `${S}.${script}`),
			fields: common,
		},
	];

	test('the tables were read', () => {
		expect(parts.filter((part) => part.fields.length === 0).map((part) => part.marker)).toEqual([]);
		expect(scriptKinds).toHaveLength(4);
		expect(parts[2].fields.map((field) => field.name)).toContain('knowledgeBase');
	});

	describe.each(parts)('$marker', ({ at, fields }) => {
		test.each(at)(
			'in %s: every field, with its type, whether it may be null, and whether it is required',
			(location) => {
				const schema = schemaAt(location);
				// The kinds' union lists every kind's fields, so none is required there; the oneOf beside it keeps them.
				const inKindUnion = location.endsWith('scripts[0]');
				for (const field of fields) {
					const property = (schema.properties as Record<string, Schema>)[field.name];
					const required = ((schema.required ?? []) as string[]).includes(field.name);
					expect([field.name, property?.type, property.nullable === true, required]).toEqual([
						field.name,
						schemaTypeOf(field.type),
						field.presence.includes('N'),
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
}
