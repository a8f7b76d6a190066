import type { INodeProperties } from 'n8n-workflow';

import { Field, Operation, Resource } from '../../shared/names';
import { contactArchive, contactArchiveDescription } from './archive';

// n8n's linter reads `default` from the source and accepts a literal or a plain name only.
const defaultOperation = Operation.Archive;

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
				action: 'Archive contact',
				description: 'Remove a contact from active use. The service keeps it and can restore it later.',
			},
		],
		default: defaultOperation,
	},
	...contactArchiveDescription,
];
