import { identifierOperation } from '../../shared/identifierOperation';
import { Field, Operation, Resource } from '../../shared/names';

export const contactListArchive = identifierOperation({
	resource: Resource.ContactList,
	operation: Operation.Archive,
	method: 'POST',
	noun: 'contact list',
	field: {
		name: Field.contactListId,
		displayName: 'Contact List ID',
		placeholder: 'e.g. {{ $json.listId }}',
		description:
			'Identifier of the contact list to archive. Surrounding spaces are ignored, and a number from an expression is used as text.',
	},
	path: (id) => `/v1/contact_lists/${id}/archive`,
});

export const contactListArchiveDescription = contactListArchive.properties;
