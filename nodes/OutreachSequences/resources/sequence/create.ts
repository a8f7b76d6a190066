import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toolDescriptionProperty } from '../../describe/properties';
import { BodyMode, defaultBodyMode, Field, Operation, Resource } from '../../describe/names';
import type { SchedulesValue } from '../../describe/names';
import type { OperationDefinition } from '../../describe/types';
import { toJsonObjectText, toScriptList, toWholeNumber } from '../../describe/validation';

const showOnlyForSequenceCreate = { resource: [Resource.Sequence], operation: [Operation.Create] };
const showOnlyForFields = { ...showOnlyForSequenceCreate, [Field.specifyBody]: [BodyMode.Fields] };

const TEXT_FIELDS = [
	{ name: Field.description, displayName: 'Description', description: 'What the sequence is for' },
	{
		name: Field.criteria,
		displayName: 'Criteria',
		description: 'A condition expression, as text, that decides which contacts the sequence applies to',
	},
	{
		name: Field.timezone,
		displayName: 'Timezone',
		description: 'The timezone the schedule times are meant in, in the form the service expects',
	},
];

const SCHEDULE_NUMBERS = [
	{ name: Field.dayOffset, displayName: 'Day Offset', description: 'The day of this step, counted from the start of the sequence' },
	{ name: Field.hour, displayName: 'Hour', description: 'The hour of the day this step runs at' },
	{ name: Field.minute, displayName: 'Minute', description: 'The minute of the hour this step runs at' },
	{ name: Field.delayInMinutes, displayName: 'Delay in Minutes', description: 'A delay before this step, in minutes' },
];

export const sequenceCreateDescription: INodeProperties[] = [
	{
		displayName: 'Send Body',
		name: Field.specifyBody,
		type: 'options',
		displayOptions: { show: showOnlyForSequenceCreate },
		options: [
			{ name: 'Using Fields Below', value: BodyMode.Fields, description: 'Fill in the sequence field by field' },
			{ name: 'Using JSON', value: BodyMode.Json, description: 'Send a JSON object exactly as written' },
		],
		default: defaultBodyMode,
		description: 'How to give the sequence to create',
	},
	{
		displayName: 'JSON Body',
		name: Field.jsonBody,
		type: 'json',
		default: '{\n  "name": "",\n  "schedules": []\n}',
		required: true,
		displayOptions: { show: { ...showOnlyForSequenceCreate, [Field.specifyBody]: [BodyMode.Json] } },
		description:
			'The sequence as a JSON object with any of name, description, criteria, schedules and timezone. It is sent exactly as given, nulls included.',
	},
	{
		displayName: 'Name',
		name: Field.name,
		type: 'string',
		default: '',
		placeholder: 'e.g. Spring webinar follow-up',
		displayOptions: { show: showOnlyForFields },
		description: 'Name of the sequence. Left out of the request when empty.',
	},
	{
		displayName: 'Additional Fields',
		name: Field.additionalFields,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showOnlyForFields },
		description: 'Optional fields of the sequence. Each one is sent only when it is not empty.',
		options: TEXT_FIELDS.map(({ name, displayName, description }) => ({
			displayName,
			name,
			type: 'string' as const,
			default: '',
			description,
		})),
	},
	{
		displayName: 'Schedules',
		name: Field.schedules,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Schedule',
		default: {},
		displayOptions: { show: showOnlyForFields },
		description:
			'The steps of the sequence, each at a day and time, with the scripts it runs. When the node is an AI Agent tool, the model cannot add rows here: to let it give the steps, use Send Body › Using JSON with the JSON Body from the model.',
		options: [
			{
				displayName: 'Schedule',
				name: Field.schedule,
				values: [
					...SCHEDULE_NUMBERS.map(({ name, displayName, description }) => ({
						displayName,
						name,
						type: 'number' as const,
						default: 0,
						description: `${description}. Must be a whole number.`,
					})),
					{
						displayName: 'Sequence Scripts',
						name: Field.sequenceScripts,
						type: 'string',
						default: '',
						placeholder: 'e.g. script-1, script-2',
						description:
							'Script identifiers for this step, separated by commas, or an expression that gives a list. Left out when empty.',
					},
				],
			},
		],
	},
	toolDescriptionProperty(
		showOnlyForSequenceCreate,
		'Creates one new outreach sequence in the outreach service and returns it as JSON, with the id the service gave it. Every call creates another sequence, so call it once per sequence. Give Name, the name of the sequence. Where the tool asks for them: Description, what the sequence is for; Criteria, a condition as text that decides which contacts it applies to; Timezone; or a JSON Body, an object with any of name, description, criteria, timezone and schedules (a list of steps, each with dayOffset, hour, minute and delayInMinutes as whole numbers, and sequenceScripts, a list of script IDs). If it fails, the result is one sentence saying what went wrong.',
	),
];

function fail(context: IExecuteFunctions, itemIndex: number, message: string): never {
	throw new NodeOperationError(context.getNode(), message, { itemIndex });
}

/** A text field: sent as given, left out when empty; a number from an expression is sent as text. */
function optionalText(context: IExecuteFunctions, itemIndex: number, label: string, raw: unknown): string | undefined {
	if (raw === undefined || raw === null) return undefined;
	if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
	if (typeof raw !== 'string') fail(context, itemIndex, `${label} must be text.`);
	return raw.trim() === '' ? undefined : raw;
}

/** The body of "Using Fields Below": only what the user set; with nothing set, {}. */
export function buildSequenceFromFields(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const body: IDataObject = {};
	const name = optionalText(context, itemIndex, 'Name', context.getNodeParameter(Field.name, itemIndex, ''));
	if (name !== undefined) body.name = name;

	const additional = context.getNodeParameter(Field.additionalFields, itemIndex, {}) as IDataObject;
	for (const field of TEXT_FIELDS) {
		const value = optionalText(context, itemIndex, field.displayName, additional[field.name]);
		if (value !== undefined) body[field.name] = value;
	}

	const schedules = context.getNodeParameter(Field.schedules, itemIndex, {}) as SchedulesValue;
	const rows = schedules[Field.schedule] ?? [];
	if (rows.length > 0) {
		body.schedules = rows.map((row, position) => {
			const entry: IDataObject = {};
			for (const field of SCHEDULE_NUMBERS) {
				const checked = toWholeNumber(row[field.name]);
				if (!checked.ok) fail(context, itemIndex, `Schedule ${position + 1}: ${field.displayName} ${checked.problem}.`);
				entry[field.name] = checked.value;
			}
			const scripts = toScriptList(row[Field.sequenceScripts]);
			if (!scripts.ok) fail(context, itemIndex, `Schedule ${position + 1}: Sequence Scripts ${scripts.problem}.`);
			if (scripts.value.length > 0) entry[Field.sequenceScripts] = scripts.value;
			return entry;
		});
	}
	return body;
}

export const sequenceCreate: OperationDefinition = {
	resource: Resource.Sequence,
	operation: Operation.Create,
	properties: sequenceCreateDescription,
	buildRequest(context, itemIndex) {
		const mode = context.getNodeParameter(Field.specifyBody, itemIndex, defaultBodyMode);
		let body: string;
		if (mode === BodyMode.Json) {
			const checked = toJsonObjectText(context.getNodeParameter(Field.jsonBody, itemIndex), 'JSON Body');
			if (!checked.ok) fail(context, itemIndex, checked.problem);
			body = checked.value;
		} else {
			body = JSON.stringify(buildSequenceFromFields(context, itemIndex));
		}
		return { method: 'POST', path: '/v1/sequences', body, subject: { noun: 'sequence', verb: 'create', done: 'created' } };
	},
};
