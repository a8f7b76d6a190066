// Every field of the contract's response tables (read from
// ../shared/api-contract.md itself, not from the OpenAPI document the schemas
// are generated from) in the output schema of its operation, with its type.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Schema } from '../../scripts/output-schemas.mts';
import { root, schemas } from './output-schemas-helpers.mts';

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
