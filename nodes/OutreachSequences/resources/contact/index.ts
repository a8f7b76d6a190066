import type { INodeProperties } from 'n8n-workflow';

import { archiveOperation, Field, Operation, Resource } from '../../describe/names';
import { contactArchive, contactArchiveDescription } from './archive';

export const contactOperations = [contactArchive];

export const contactDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: Field.operation,
		type: 'options',
		noDataExpression: true,
		description: 'What to do with the contact',
		displayOptions: { show: { resource: [Resource.Contact] } },
		options: [
			{
				name: 'Archive',
				value: Operation.Archive,
				action: 'Archive a contact',
				description: 'Remove a contact from active use. The service keeps it and can restore it later.',
			},
		],
		default: archiveOperation,
	},
	...contactArchiveDescription,
];
