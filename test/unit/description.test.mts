// The names below are the public interface that saved workflows store. They
// are written out here, not imported, so that renaming one fails this test.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { OutreachSequencesApi } from '../../credentials/OutreachSequencesApi.credentials.ts';
import { OutreachSequences } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

const ROOT = path.resolve(here, '..', '..');
const { description } = new OutreachSequences();
const credential = new OutreachSequencesApi();

function visible(resource: string, operation?: string): INodeProperties[] {
	return description.properties.filter((property) => {
		const show = property.displayOptions?.show;
		if (!show) return true;
		if (show.resource && !show.resource.includes(resource)) return false;
		if (operation && show.operation && !show.operation.includes(operation)) return false;
		return true;
	});
}

const byName = (properties: INodeProperties[], name: string) =>
	properties.find((property) => property.name === name);

test('node identity', () => {
	expect(description).toMatchObject({
		name: 'outreachSequences',
		displayName: 'Outreach Sequences',
		version: 1,
		usableAsTool: true,
		credentials: [{ name: 'outreachSequencesApi', required: true }],
	});
	expect(description.subtitle).toContain('$parameter["operation"]');
	expect(description.subtitle).toContain('$parameter["resource"]');
});

test('resources and their operations', () => {
	const resource = byName(description.properties, 'resource')!;
	expect((resource.options as INodePropertyOptions[]).map((option) => option.value).sort()).toEqual(
		['contact', 'contactList', 'sequence', 'useCase'],
	);
	const operationsOf = (value: string) =>
		description.properties
			.filter(
				(property) =>
					property.name === 'operation' && property.displayOptions?.show?.resource?.includes(value),
			)
			.flatMap((property) =>
				(property.options as INodePropertyOptions[]).map((option) => option.value),
			);
	expect(operationsOf('sequence')).toEqual(['create']);
	expect(operationsOf('contact')).toEqual(['archive']);
	expect(operationsOf('contactList')).toEqual(['archive']);
	expect(operationsOf('useCase')).toEqual(['get']);
});

// n8n saves no parameter left at its default: a saved workflow that never
// changed the operation runs whatever the default is.
test("each resource's Operation selector keeps its default", () => {
	const defaults = description.properties
		.filter((property) => property.name === 'operation')
		.map((property) => [property.displayOptions?.show?.resource, property.default]);
	expect(defaults).toEqual([
		[['sequence'], 'create'],
		[['contact'], 'archive'],
		[['contactList'], 'archive'],
		[['useCase'], 'get'],
	]);
});

test.each([
	['contact', 'archive', 'contactId'],
	['contactList', 'archive', 'contactListId'],
	['useCase', 'get', 'useCaseId'],
])('%s › %s has a required string field %s', (resource, operation, field) => {
	expect(byName(visible(resource, operation), field)).toMatchObject({
		type: 'string',
		required: true,
	});
});

test('sequence › create fields', () => {
	const fields = visible('sequence', 'create');
	const specifyBody = byName(fields, 'specifyBody')!;
	expect(specifyBody.default).toBe('fields');
	expect((specifyBody.options as INodePropertyOptions[]).map((option) => option.value)).toEqual([
		'fields',
		'json',
	]);
	expect(byName(fields, 'jsonBody')).toMatchObject({
		type: 'json',
		displayOptions: { show: { specifyBody: ['json'] } },
	});
	expect(byName(fields, 'name')).toMatchObject({
		type: 'string',
		displayOptions: { show: { specifyBody: ['fields'] } },
	});

	const additional = byName(fields, 'additionalFields')!;
	expect(additional.type).toBe('collection');
	expect((additional.options as INodeProperties[]).map((option) => option.name).sort()).toEqual([
		'criteria',
		'description',
		'timezone',
	]);

	const schedules = byName(fields, 'schedules')!;
	expect(schedules).toMatchObject({
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
	});
	const [schedule] = schedules.options as INodePropertyCollection[];
	expect(schedule.name).toBe('schedule');
	expect(schedule.values.map((value) => [value.name, value.type])).toEqual([
		['dayOffset', 'number'],
		['hour', 'number'],
		['minute', 'number'],
		['delayInMinutes', 'number'],
		['sequenceScripts', 'string'],
	]);
});

function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option) return allProperties(option.values);
			if ('type' in option) return allProperties([option as INodeProperties]);
			return [];
		});
		return [property, ...nested];
	});
}

test('every property and every option of the node and the credential has a description', () => {
	const missing = [
		...allProperties(description.properties),
		...allProperties(credential.properties),
	]
		.filter((property) => property.type !== 'notice')
		.filter((property) => !(property.description && property.description.length > 10))
		.map((property) => property.name);
	expect(missing).toEqual([]);

	const options = description.properties
		.filter((property) => property.type === 'options')
		.flatMap((property) => property.options as INodePropertyOptions[]);
	expect(options.filter((option) => !option.description).map((option) => option.value)).toEqual([]);
});

test("every operation's action is written as n8n's own nodes write theirs (Airtable's \"Get a record\"): verb, article, object, in sentence case", () => {
	const operations = description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => property.options as INodePropertyOptions[]);
	const actions = operations.map((operation) => operation.action);
	expect(actions).toEqual([
		'Create a sequence',
		'Archive a contact',
		'Archive a contact list',
		'Get a use case',
	]);
	expect(
		actions.filter((action) => !/^[A-Z][a-z]+ an? [a-z]+( [a-z]+)*$/.test(action ?? '')),
	).toEqual([]);
});

test('credential', () => {
	expect(credential.name).toBe('outreachSequencesApi');
	expect(
		credential.properties.map((property) => [
			property.name,
			property.required,
			property.typeOptions?.password ?? false,
		]),
	).toEqual([
		['apiKey', true, true],
		['baseUrl', true, false],
	]);
	expect(credential.documentationUrl).toMatch(/^https:\/\//);
});

test("the credential's and the codex's documentation links lead to a heading of the README", () => {
	const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	// The anchors npm and GitHub give headings: lower case, punctuation dropped, spaces as hyphens.
	const anchors = [...readme.matchAll(/^#{1,4} (.+)$/gm)].map((match) =>
		match[1]
			.toLowerCase()
			.replace(/[^\p{L}\p{N} -]/gu, '')
			.replace(/ /g, '-'),
	);
	const codex = JSON.parse(
		readFileSync(path.join(ROOT, 'nodes/OutreachSequences/OutreachSequences.node.json'), 'utf8'),
	) as {
		resources: Record<string, Array<{ url: string }>>;
	};
	const links = [
		credential.documentationUrl as string,
		...Object.values(codex.resources)
			.flat()
			.map((resource) => resource.url),
	];
	// The repository's page on GitHub, which shows the README: it exists once the repository is public, before any release.
	const { repository } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		repository: { url: string };
	};
	for (const link of links) {
		const url = new URL(link);
		expect(url.origin + url.pathname).toBe(
			repository.url.replace(/^git\+/, '').replace(/\.git$/, ''),
		);
		if (url.hash) expect(anchors).toContain(url.hash.slice(1));
	}
	expect(links.some((link) => link.endsWith('#credential-outreach-sequences-api'))).toBe(true);
});

test('light and dark icons are two different files, and the codex names the node type', () => {
	const light = description.icon as { light: string; dark: string };
	const file = (reference: string) =>
		path.resolve(ROOT, 'dist/nodes/OutreachSequences', reference.replace(/^file:/, ''));
	expect(existsSync(file(light.light))).toBe(true);
	expect(existsSync(file(light.dark))).toBe(true);
	expect(readFileSync(file(light.light), 'utf8')).not.toBe(readFileSync(file(light.dark), 'utf8'));
	const credentialIcon = credential.icon as { light: string; dark: string };
	expect(
		existsSync(path.resolve(ROOT, 'dist/credentials', credentialIcon.light.replace(/^file:/, ''))),
	).toBe(true);

	const codex = JSON.parse(
		readFileSync(path.join(ROOT, 'nodes/OutreachSequences/OutreachSequences.node.json'), 'utf8'),
	);
	expect(codex.node).toBe('n8n-nodes-outreach-sequences.outreachSequences');
	expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
});

test('package.json: a verified community package with no runtime dependencies', () => {
	const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	expect(manifest).toMatchObject({
		name: 'n8n-nodes-outreach-sequences',
		license: 'MIT',
		files: ['dist'],
		peerDependencies: { 'n8n-workflow': '*' },
		n8n: { n8nNodesApiVersion: 1 },
	});
	expect(manifest.keywords).toContain('n8n-community-node-package');
	expect(manifest.dependencies).toBeUndefined();
	expect(manifest.overrides).toBeUndefined();
	for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
		expect(existsSync(path.join(ROOT, entry))).toBe(true);
	}
});

test('every example workflow uses an operation the node offers, and the sandbox credential', () => {
	const operations = new Set(
		description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options as INodePropertyOptions[]).map(
					(option) => `${property.displayOptions!.show!.resource![0]}:${option.value}`,
				),
			),
	);
	const folder = path.join(ROOT, 'examples');
	const used = new Set<string>();
	for (const file of readdirSync(folder).filter((name) => name.endsWith('.workflow.json'))) {
		const workflow = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
		for (const node of workflow.nodes.filter(
			(entry: { type: string }) => entry.type === 'n8n-nodes-outreach-sequences.outreachSequences',
		)) {
			const key = `${node.parameters.resource}:${node.parameters.operation ?? ''}`;
			expect(operations).toContain(key);
			expect(node.credentials.outreachSequencesApi.id).toBe('outreachSandbox');
			used.add(key);
		}
	}
	expect([...used].sort()).toEqual([...operations].sort());
});

test('every operation has a tool description of its own, shown only on the AI Agent tool variant', () => {
	const toolDescriptions = description.properties.filter(
		(property) => property.name === 'toolDescription',
	);
	const covered = toolDescriptions.map(
		(property) =>
			`${property.displayOptions?.show?.resource}/${property.displayOptions?.show?.operation}`,
	);
	expect(covered.sort()).toEqual([
		'contact/archive',
		'contactList/archive',
		'sequence/create',
		'useCase/get',
	]);
	for (const property of toolDescriptions) {
		expect(property.displayOptions?.show?.['@tool']).toEqual([true]);
		expect(String(property.default).length).toBeGreaterThan(150);
		expect(String(property.default)).not.toMatch(/ in Outreach Sequences$/);
	}
});
