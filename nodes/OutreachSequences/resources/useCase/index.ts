import type { INodeProperties } from 'n8n-workflow';

import { getOperation, Field, Operation, Resource } from '../../describe/names';
import { useCaseGet, useCaseGetDescription } from './get';

export const useCaseOperations = [useCaseGet];

export const useCaseDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: Field.operation,
		type: 'options',
		noDataExpression: true,
		description: 'What to do with the use case',
		displayOptions: { show: { resource: [Resource.UseCase] } },
		options: [
			{
				name: 'Get',
				value: Operation.Get,
				action: 'Get a use case',
				description: 'Get a use case by its identifier, with its title, description, status and actions',
			},
		],
		default: getOperation,
	},
	...useCaseGetDescription,
];
