import type { INodeProperties } from 'n8n-workflow';

import { archiveOperation, Field, Operation, Resource } from '../../describe/names';
import { contactListArchive, contactListArchiveDescription } from './archive';

export const contactListOperations = [contactListArchive];

export const contactListDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: Field.operation,
		type: 'options',
		noDataExpression: true,
		description: 'What to do with the contact list',
		displayOptions: { show: { resource: [Resource.ContactList] } },
		options: [
			{
				name: 'Archive',
				value: Operation.Archive,
				action: 'Archive a contact list',
				description: 'Remove a contact list from active use. The service keeps it and can restore it later.',
			},
		],
		default: archiveOperation,
	},
	...contactListArchiveDescription,
];
