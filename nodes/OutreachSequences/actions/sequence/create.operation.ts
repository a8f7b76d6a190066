/** Sequence › Create: its fields, and the create request built from an item. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Operation } from '../../helpers/interfaces';
import type { Checked } from '../../helpers/validation';
import {
	toJsonObjectText,
	toOptionalText,
	toScriptList,
	toWholeNumber,
} from '../../helpers/validation';
import { toolDescription } from '../common.descriptions';

const showFields = { specifyBody: ['fields'] };

// The contract gives Criteria and Timezone as text with no format; Additional Fields' description says so.
const textFields: INodeProperties[] = [
	['description', 'Description', 'What the sequence is for'],
	[
		'criteria',
		'Criteria',
		'Which contacts the sequence applies to: a condition, as text in the form your service takes',
	],
	[
		'timezone',
		'Timezone',
		"The timezone of the schedule's times, as text in the form your service takes",
	],
].map(([name, displayName, description]) => ({
	displayName,
	name,
	type: 'string',
	default: '',
	description,
}));

const scheduleNumbers: INodeProperties[] = [
	['dayOffset', 'Day Offset'],
	['hour', 'Hour'],
	['minute', 'Minute'],
	['delayInMinutes', 'Delay in Minutes'],
].map(([name, displayName]) => ({
	displayName,
	name,
	type: 'number',
	default: 0,
	description: `The step's ${displayName.toLowerCase()}: a whole number`,
}));

const properties: INodeProperties[] = [
	{
		displayName: 'Send Body',
		name: 'specifyBody',
		type: 'options',
		options: [
			{
				name: 'Using Fields Below',
				value: 'fields',
				description: 'Fill in the sequence field by field',
			},
			{ name: 'Using JSON', value: 'json', description: 'Send a JSON object exactly as written' },
		],
		default: 'fields',
		description: 'How to give the sequence to create',
	},
	{
		displayName: 'JSON Body',
		name: 'jsonBody',
		type: 'json',
		default: JSON.stringify(
			{
				name: '',
				schedules: [{ dayOffset: 0, hour: 0, minute: 0, delayInMinutes: 0, sequenceScripts: [] }],
			},
			null,
			2,
		),
		required: true,
		displayOptions: { show: { specifyBody: ['json'] } },
		description:
			'The sequence as a JSON object, sent as written: name, description, criteria, timezone and schedules. Keys from a response, such as scripts or phoneScript, are not request keys.',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Spring webinar follow-up',
		displayOptions: { show: showFields },
		description: 'Name of the sequence. Leave it empty to create a sequence without a name.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showFields },
		description:
			"More details of the sequence, each one optional and sent as typed. The service's document gives no format for Criteria or Timezone.",
		options: textFields,
	},
	{
		displayName: 'Schedules',
		name: 'schedules',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Schedule',
		default: {},
		displayOptions: { show: showFields },
		description:
			"The steps of the sequence, each at a day and time, with the scripts it runs. The service's document gives no range or unit for Day Offset, Hour and Minute, nor what a script entry is.",
		options: [
			{
				displayName: 'Schedule',
				name: 'schedule',
				values: [
					...scheduleNumbers,
					{
						displayName: 'Sequence Scripts',
						name: 'sequenceScripts',
						type: 'string',
						default: '',
						placeholder: 'e.g. script-1, script-2',
						description:
							"The step's scripts: text entries separated by commas, or an expression that gives a list of texts",
					},
				],
			},
		],
	},
	toolDescription(
		'Creates one new outreach sequence in the outreach service and returns it as JSON, with the id the service gave it. Every call creates another sequence, so call it once per sequence. Give Name, the name of the sequence. Where the tool asks for them: Description, what the sequence is for; Criteria, a condition as text that decides which contacts it applies to; Timezone; or a JSON Body, an object with any of name, description, criteria, timezone and schedules (a list of steps, each with dayOffset, hour, minute and delayInMinutes as whole numbers, and sequenceScripts, a list of strings). If it fails, the result is one sentence saying what went wrong.',
	),
];

export const sequenceCreate: Operation = {
	option: {
		name: 'Create',
		action: 'Create a sequence',
		description: 'Create an outreach sequence from a name, optional details and schedule steps',
	},
	operationId: 'createSequence',
	properties,
	buildRequest(read, itemIndex) {
		const checked = <T>(value: Checked<T>, at = ''): T => {
			if (value.ok) return value.value;
			throw new NodeOperationError(read.node, `${at}${value.problem}`, { itemIndex });
		};
		const request = { method: 'POST' as const, path: '/v1/sequences' };
		const subject = { noun: 'sequence', verb: 'create', done: 'created' };
		if (read.perRun('specifyBody', itemIndex, 'fields', (raw) => raw) === 'json') {
			const body = read.perRun('jsonBody', itemIndex, undefined, (raw) =>
				checked(toJsonObjectText(raw, 'JSON Body')),
			);
			return { ...request, body, subject };
		}
		const name = read.perRun('name', itemIndex, '', (raw) => checked(toOptionalText(raw, 'Name')));
		const details = read.perRun('additionalFields', itemIndex, {}, (raw) =>
			textFields.map((field) => [
				field.name,
				checked(toOptionalText((raw as IDataObject)[field.name], field.displayName)),
			]),
		);
		const schedules = read.perRun('schedules', itemIndex, {}, (raw) =>
			((raw as { schedule?: IDataObject[] }).schedule ?? []).map((row, index) => {
				const at = `Schedule ${index + 1}: `;
				const step: IDataObject = {};
				for (const field of scheduleNumbers)
					step[field.name] = checked(toWholeNumber(row[field.name], field.displayName), at);
				const scripts = checked(toScriptList(row.sequenceScripts, 'Sequence Scripts'), at);
				return scripts.length > 0 ? { ...step, sequenceScripts: scripts } : step;
			}),
		);
		const fields = {
			name,
			...Object.fromEntries(details),
			schedules: schedules.length > 0 ? schedules : undefined,
		};
		// The name, so that a failure's message names the sequence.
		return { ...request, body: JSON.stringify(fields), subject: { ...subject, name } };
	},
};
