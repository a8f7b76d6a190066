import { identifierOperation } from '../../shared/identifierOperation';
import { Field, Operation, Resource } from '../../shared/names';

export const contactArchive = identifierOperation({
	resource: Resource.Contact,
	operation: Operation.Archive,
	method: 'POST',
	noun: 'contact',
	field: {
		name: Field.contactId,
		displayName: 'Contact ID',
		placeholder: 'e.g. {{ $json.id }}',
		description:
			'Identifier of the contact to archive. Surrounding spaces are ignored, and a number from an expression is used as text.',
	},
	path: (id) => `/v1/contacts/${id}/archive`,
});

export const contactArchiveDescription = contactArchive.properties;
