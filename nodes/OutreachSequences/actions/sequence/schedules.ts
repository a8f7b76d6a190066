/** Sequence › Create's Schedules: the fields of a schedule step, and each row as an entry of the request. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ScheduleRowValue } from '../../helpers/interfaces';
import { toScriptList, toWholeNumber } from '../../helpers/validation';

export const SCHEDULE_NUMBERS = [
	{
		name: 'dayOffset',
		displayName: 'Day Offset',
		description: "The step's day offset: a whole number",
	},
	{ name: 'hour', displayName: 'Hour', description: "The step's hour: a whole number" },
	{ name: 'minute', displayName: 'Minute', description: "The step's minute: a whole number" },
	{
		name: 'delayInMinutes',
		displayName: 'Delay in Minutes',
		description: "The step's delay in minutes: a whole number",
	},
];

export function schedulesProperty(
	show: NonNullable<INodeProperties['displayOptions']>['show'],
): INodeProperties {
	return {
		displayName: 'Schedules',
		name: 'schedules',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Schedule',
		default: {},
		displayOptions: { show },
		description:
			"The steps of the sequence, each at a day and time, with the scripts it runs. The service's document gives no range or unit for Day Offset, Hour and Minute, nor what a script entry is.",
		options: [
			{
				displayName: 'Schedule',
				name: 'schedule',
				values: [
					...SCHEDULE_NUMBERS.map(({ name, displayName, description }) => ({
						displayName,
						name,
						type: 'number' as const,
						default: 0,
						description,
					})),
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
	};
}

export function scheduleEntry(
	row: ScheduleRowValue,
	position: number,
	fail: (message: string) => never,
): IDataObject {
	const entry: IDataObject = {};
	for (const field of SCHEDULE_NUMBERS) {
		const checked = toWholeNumber(row[field.name]);
		if (!checked.ok) fail(`Schedule ${position + 1}: ${field.displayName} ${checked.problem}.`);
		entry[field.name] = checked.value;
	}
	const scripts = toScriptList(row.sequenceScripts);
	if (!scripts.ok) fail(`Schedule ${position + 1}: Sequence Scripts ${scripts.problem}.`);
	if (scripts.value.length > 0) entry.sequenceScripts = scripts.value;
	return entry;
}
