/** Sequence › Create: its fields, and the create request built from an item. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toolDescriptionProperty } from '../common.descriptions';
import type { SchedulesValue, ItemReader, OperationDefinition } from '../../helpers/interfaces';
import { toJsonObjectText } from '../../helpers/validation';
import { scheduleEntry, schedulesProperty } from './schedules';

const showOnlyForSequenceCreate = { resource: ['sequence'], operation: ['create'] };
const showOnlyForFields = { ...showOnlyForSequenceCreate, specifyBody: ['fields'] };

// The contract gives Criteria and Timezone as text with no format; Additional Fields' description says so.
const TEXT_FIELDS = [
	{ name: 'description', displayName: 'Description', description: 'What the sequence is for' },
	{
		name: 'criteria',
		displayName: 'Criteria',
		description:
			'Which contacts the sequence applies to: a condition, as text in the form your service takes',
	},
	{
		name: 'timezone',
		displayName: 'Timezone',
		description: "The timezone of the schedule's times, as text in the form your service takes",
	},
];

const JSON_BODY_TEMPLATE = `{
  "name": "",
  "schedules": [
    {
      "dayOffset": 0,
      "hour": 0,
      "minute": 0,
      "delayInMinutes": 0,
      "sequenceScripts": []
    }
  ]
}`;

export const sequenceCreateDescription: INodeProperties[] = [
	{
		displayName: 'Send Body',
		name: 'specifyBody',
		type: 'options',
		displayOptions: { show: showOnlyForSequenceCreate },
		options: [
			{
				name: 'Using Fields Below',
				value: 'fields',
				description: 'Fill in the sequence field by field',
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: 'Send a JSON object exactly as written',
			},
		],
		default: 'fields',
		description: 'How to give the sequence to create',
	},
	{
		displayName: 'JSON Body',
		name: 'jsonBody',
		type: 'json',
		default: JSON_BODY_TEMPLATE,
		required: true,
		displayOptions: {
			show: { ...showOnlyForSequenceCreate, specifyBody: ['json'] },
		},
		description:
			'The sequence as a JSON object, sent as written: name, description, criteria, timezone and schedules. Keys from a response, such as scripts or phoneScript, are not request keys.',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Spring webinar follow-up',
		displayOptions: { show: showOnlyForFields },
		description: 'Name of the sequence. Leave it empty to create a sequence without a name.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showOnlyForFields },
		description:
			"More details of the sequence, each one optional and sent as typed. The service's document gives no format for Criteria or Timezone.",
		options: TEXT_FIELDS.map(({ name, displayName, description }) => ({
			displayName,
			name,
			type: 'string' as const,
			default: '',
			description,
		})),
	},
	schedulesProperty(showOnlyForFields),
	toolDescriptionProperty(
		showOnlyForSequenceCreate,
		'Creates one new outreach sequence in the outreach service and returns it as JSON, with the id the service gave it. Every call creates another sequence, so call it once per sequence. Give Name, the name of the sequence. Where the tool asks for them: Description, what the sequence is for; Criteria, a condition as text that decides which contacts it applies to; Timezone; or a JSON Body, an object with any of name, description, criteria, timezone and schedules (a list of steps, each with dayOffset, hour, minute and delayInMinutes as whole numbers, and sequenceScripts, a list of strings). If it fails, the result is one sentence saying what went wrong.',
	),
];

function fail(read: ItemReader, itemIndex: number, message: string): never {
	throw new NodeOperationError(read.node, message, { itemIndex });
}

function optionalText(read: ItemReader, itemIndex: number, label: string, raw: unknown) {
	if (raw === undefined || raw === null) return undefined;
	if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
	if (typeof raw !== 'string') fail(read, itemIndex, `${label} must be text.`);
	return raw.trim() === '' ? undefined : raw;
}

function textFields(read: ItemReader, itemIndex: number, additional: IDataObject) {
	const set: Array<[string, string]> = [];
	for (const field of TEXT_FIELDS) {
		const value = optionalText(read, itemIndex, field.displayName, additional[field.name]);
		if (value !== undefined) set.push([field.name, value]);
	}
	return set;
}

function scheduleEntries(read: ItemReader, itemIndex: number, schedules: SchedulesValue) {
	const rows = schedules.schedule ?? [];
	if (rows.length === 0) return undefined;
	return rows.map((row, position) =>
		scheduleEntry(row, position, (message) => fail(read, itemIndex, message)),
	);
}

function buildSequenceFromFields(read: ItemReader, itemIndex: number): IDataObject {
	const body: IDataObject = {};
	const name = read.perRun('name', itemIndex, '', (raw) =>
		optionalText(read, itemIndex, 'Name', raw),
	);
	if (name !== undefined) body.name = name;
	const additional = read.perRun('additionalFields', itemIndex, {}, (raw) =>
		textFields(read, itemIndex, raw as IDataObject),
	);
	for (const [key, value] of additional) body[key] = value;
	const schedules = read.perRun('schedules', itemIndex, {}, (raw) =>
		scheduleEntries(read, itemIndex, raw as SchedulesValue),
	);
	if (schedules) body.schedules = schedules;
	return body;
}

export const sequenceCreate: OperationDefinition = {
	resource: 'sequence',
	operation: 'create',
	operationId: 'createSequence',
	makesNew: true,
	option: {
		name: 'Create',
		action: 'Create a sequence',
		description: 'Create an outreach sequence from a name, optional details and schedule steps',
	},
	properties: sequenceCreateDescription,
	buildRequest(read, itemIndex) {
		const mode = read.perRun('specifyBody', itemIndex, 'fields', (raw) => raw);
		const fields = mode === 'json' ? undefined : buildSequenceFromFields(read, itemIndex);
		const body = fields
			? JSON.stringify(fields)
			: read.perRun('jsonBody', itemIndex, undefined, (raw) => {
					const checked = toJsonObjectText(raw, 'JSON Body');
					if (!checked.ok) fail(read, itemIndex, checked.problem);
					return checked.value;
				});
		// So that a failure's message names the sequence.
		const name = typeof fields?.name === 'string' ? { name: fields.name } : {};
		return {
			method: 'POST',
			path: '/v1/sequences',
			body,
			subject: { noun: 'sequence', verb: 'create', done: 'created', ...name },
		};
	},
};
