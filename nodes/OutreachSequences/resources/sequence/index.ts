import type { INodeProperties } from 'n8n-workflow';

import { createOperation, Field, Operation, Resource } from '../../describe/names';
import { sequenceCreate, sequenceCreateDescription } from './create';

export const sequenceOperations = [sequenceCreate];

export const sequenceDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: Field.operation,
		type: 'options',
		noDataExpression: true,
		description: 'What to do with the sequence',
		displayOptions: { show: { resource: [Resource.Sequence] } },
		options: [
			{
				name: 'Create',
				value: Operation.Create,
				action: 'Create a sequence',
				description: 'Create an outreach sequence from a name, optional details and schedule steps',
			},
		],
		default: createOperation,
	},
	...sequenceCreateDescription,
];
