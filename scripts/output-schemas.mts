// The output schemas that n8n's schema preview shows before the node has run,
// generated from the contract's OpenAPI document (the one source of truth):
// for each node operation, the success response of the operationId its
// operation file names, written to __schema__/v<version>/<resource>/<operation>.json
// beside the built node file, in the form of n8n's own __schema__ files
// ({ type: 'object', properties, required, version: 1 }, no $schema).
//
// What n8n's editor does with a schema decides the form. Its converter
// (getSchemaForJsonSchema in the editor's useDataSchema, n8n 2.41.1) reads
// only `type`, `properties` and `items`:
// - an array or object is opened only when `type` is exactly the string
//   'array' or 'object'; a `type` list such as ['array', 'null'] is shown as
//   its first entry with no fields under it, so schedules, scripts, phone
//   numbers and actions would lose every nested field;
// - `oneOf`, `anyOf`, `allOf` and `$ref` are not read: such a field shows as
//   "undefined", with nothing under it;
// - an `enum` without `type` also shows as "undefined".
// So every schema here has one `type` string, and:
// - a nullable field keeps its type and says `nullable: true` (the OpenAPI
//   3.0 keyword, which Ajv also reads), so `schedules` stays an array of
//   objects that the user can open and drag from, and null still validates;
// - `$ref`s are inlined and `allOf` is merged into one object;
// - the script kinds of `scripts[]` (PhoneScript, EmailScript, TextScript,
//   BlasterScript, named by `$type`) become one object with the fields of all
//   four, each described with the kinds that carry it, so the preview lists
//   them all under scripts[0]; the exact `oneOf` stays beside it, so a
//   validator still checks each kind's own required fields;
// - an enum gets the `type` of its values.
// Nothing the document leaves open gets a range, format or enum here.

import type { INodeProperties } from 'n8n-workflow';

export type Schema = { [key: string]: unknown };
type Document = {
	paths: Record<string, Record<string, Schema>>;
	components?: { schemas?: Record<string, Schema> };
};

const isObject = (value: unknown): value is Schema =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema a `#/components/schemas/<name>` reference points at. */
function resolveRef(document: Document, ref: string): Schema {
	const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
	const target = name === undefined ? undefined : document.components?.schemas?.[name];
	if (!isObject(target)) throw new Error(`Cannot resolve ${ref}`);
	return target;
}

/** One `type` string plus `nullable`, from a JSON Schema `type` (a string or a list with 'null'). */
export function singleType(
	type: unknown,
	enumValues?: unknown,
): { type?: string; nullable?: true } {
	if (typeof type === 'string') return { type };
	if (Array.isArray(type)) {
		const others = type.filter((entry) => entry !== 'null');
		if (others.length !== 1)
			throw new Error(`A type list must be one type and 'null', not ${JSON.stringify(type)}`);
		return {
			type: others[0] as string,
			...(type.includes('null') ? { nullable: true as const } : {}),
		};
	}
	if (Array.isArray(enumValues)) {
		const kinds = [...new Set(enumValues.map((value) => (value === null ? 'null' : typeof value)))];
		return singleType(kinds.length === 1 ? kinds[0] : kinds, undefined);
	}
	return {};
}

/** Two object schemas as one: properties and required lists joined (allOf of objects). */
function mergeObjects(parts: Schema[]): Schema {
	const properties: Record<string, Schema> = {};
	const required = new Set<string>();
	for (const part of parts) {
		for (const [name, schema] of Object.entries(
			(part.properties ?? {}) as Record<string, Schema>,
		)) {
			properties[name] = { ...properties[name], ...schema };
		}
		for (const name of (part.required ?? []) as string[]) required.add(name);
	}
	return { type: 'object', properties, ...(required.size ? { required: [...required] } : {}) };
}

/**
 * The kinds of a `oneOf` of objects as one object for the preview: every
 * field of every kind, each described with the kinds that carry it (fields
 * every kind has keep their own description). The `oneOf` itself stays.
 */
function unionOfKinds(kinds: Schema[], kindNames: string[]): Schema {
	const properties: Record<string, Schema> = {};
	const carriers: Record<string, string[]> = {};
	kinds.forEach((kind, index) => {
		for (const [name, schema] of Object.entries(
			(kind.properties ?? {}) as Record<string, Schema>,
		)) {
			const { const: _value, ...shape } = schema;
			properties[name] ??= shape;
			(carriers[name] ??= []).push(kindNames[index]);
		}
	});
	for (const [name, kindsWithIt] of Object.entries(carriers)) {
		if (name === '$type')
			properties[name] = {
				...properties[name],
				enum: kindNames,
				description: `The script kind: ${kindNames.join(', ')}`,
			};
		else if (kindsWithIt.length < kinds.length)
			properties[name] = { ...properties[name], description: `${kindsWithIt.join(', ')} only` };
	}
	return { type: 'object', properties, oneOf: kinds };
}

/** The kind a `oneOf` branch names in its `$type` const, for the descriptions. */
const kindName = (kind: Schema): string =>
	String(
		((kind.properties as Record<string, Schema> | undefined)?.$type as Schema | undefined)?.const ??
			'unnamed',
	);

/** A schema of the document in the preview form described at the top of this file. */
export function previewForm(document: Document, schema: Schema): Schema {
	if (typeof schema.$ref === 'string')
		return previewForm(document, resolveRef(document, schema.$ref));
	if (Array.isArray(schema.allOf)) {
		const { allOf, ...rest } = schema;
		return {
			...mergeObjects((allOf as Schema[]).map((part) => previewForm(document, part))),
			...rest,
		};
	}
	if (Array.isArray(schema.oneOf)) {
		const kinds = (schema.oneOf as Schema[]).map((kind) => previewForm(document, kind));
		return unionOfKinds(kinds, kinds.map(kindName));
	}
	const { type: _type, properties, items, ...rest } = schema;
	const typed = singleType(schema.type, schema.enum);
	return {
		...(isObject(properties) ? { type: 'object', ...typed } : typed),
		...(isObject(properties)
			? {
					properties: Object.fromEntries(
						Object.entries(properties).map(([name, child]) => [
							name,
							previewForm(document, child as Schema),
						]),
					),
				}
			: {}),
		...(isObject(items) ? { items: previewForm(document, items) } : {}),
		...rest,
	};
}

/** The output schema of the document's operation `operationId`: its one success answer, as n8n's own __schema__ files are written. */
export function outputSchema(document: Document, operationId: string): Schema {
	const operation = Object.values(document.paths)
		.flatMap((methods) => Object.values(methods))
		.find((candidate) => candidate.operationId === operationId);
	if (!operation) throw new Error(`The OpenAPI document has no operation ${operationId}`);
	const successes = Object.entries((operation.responses ?? {}) as Record<string, Schema>).filter(
		([status]) => /^2\d\d$/.test(status),
	);
	if (successes.length !== 1)
		throw new Error(
			`${operationId} has ${successes.length} success responses in the document; its output needs exactly one`,
		);
	const [[status, success]] = successes;
	const response = (success.content as Record<string, Schema> | undefined)?.['application/json']
		?.schema;
	if (!isObject(response))
		throw new Error(`${operationId} has no JSON response ${status} in the document`);
	// n8n's own files end with "version": 1.
	return { ...previewForm(document, response), version: 1 };
}

/** Every 'resource/operation' the node's description offers, from its Operation fields. */
export function nodeOperations(properties: INodeProperties[]): string[] {
	return properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			(property.displayOptions?.show?.resource ?? []).flatMap((resource) =>
				((property.options ?? []) as Array<{ value: unknown }>).map(
					(option) => `${String(resource)}/${String(option.value)}`,
				),
			),
		);
}
