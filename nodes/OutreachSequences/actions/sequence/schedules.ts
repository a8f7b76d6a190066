/**
 * Sequence › Create's Schedules: the rows of schedule steps, their fields,
 * and each row as a schedule entry of the create request. The contract gives
 * the numbers' type (integers) and no range, and no unit but for Delay in
 * Minutes; nor what an entry of sequenceScripts holds. The group's hint says
 * so once; each field's hint says what it takes.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { Field } from '../../helpers/names';
import type { ScheduleRowValue } from '../../helpers/names';
import { toScriptList, toWholeNumber } from '../../helpers/validation';

export const SCHEDULE_NUMBERS = [
	{
		name: Field.dayOffset,
		displayName: 'Day Offset',
		description: "The step's day offset: a whole number",
	},
	{ name: Field.hour, displayName: 'Hour', description: "The step's hour: a whole number" },
	{ name: Field.minute, displayName: 'Minute', description: "The step's minute: a whole number" },
	{
		name: Field.delayInMinutes,
		displayName: 'Delay in Minutes',
		description: "The step's delay in minutes: a whole number",
	},
];

/** The Schedules field, shown where `show` says. */
export function schedulesProperty(
	show: NonNullable<INodeProperties['displayOptions']>['show'],
): INodeProperties {
	return {
		displayName: 'Schedules',
		name: Field.schedules,
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
				name: Field.schedule,
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
						name: Field.sequenceScripts,
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

/** A row as a schedule entry of the request; `fail` says what is wrong with it, and throws. */
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
	const scripts = toScriptList(row[Field.sequenceScripts]);
	if (!scripts.ok) fail(`Schedule ${position + 1}: Sequence Scripts ${scripts.problem}.`);
	if (scripts.value.length > 0) entry[Field.sequenceScripts] = scripts.value;
	return entry;
}
