// The names below are the public interface that saved workflows store. They
// are written out here, not imported, so that renaming one fails this test.
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { OutreachSequencesApi } from '../../credentials/OutreachSequencesApi.credentials.ts';
import { OutreachSequences } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';

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
	// What each tells a model first (the AI Agent e2e checks the model gets the node's own).
	const openings = Object.fromEntries(
		toolDescriptions.map((property) => [
			`${property.displayOptions?.show?.resource}/${property.displayOptions?.show?.operation}`,
			String(property.default).split(/[:.] /)[0],
		]),
	);
	expect(openings).toEqual({
		'contact/archive': 'Archives one contact in the outreach service',
		'contactList/archive': 'Archives one contact list in the outreach service',
		'sequence/create':
			'Creates one new outreach sequence in the outreach service and returns it as JSON, with the id the service gave it',
		'useCase/get': 'Gets one use case from the outreach service',
	});
	for (const property of toolDescriptions) {
		expect(property.displayOptions?.show?.['@tool']).toEqual([true]);
		expect(String(property.default).length).toBeGreaterThan(150);
		expect(String(property.default)).not.toMatch(/ in Outreach Sequences$/);
	}
});
