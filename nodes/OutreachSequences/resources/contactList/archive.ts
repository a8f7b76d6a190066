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
	toolDescription:
		'Archives one contact list in the outreach service: the list is removed from active use. Give Contact List ID, the identifier of the list exactly as the service knows it (not its name). Returns the archived list as JSON: id, name, description, status and contact count. If it fails, the result is one sentence saying what went wrong, for example that no such contact list exists.',
	path: (id) => `/v1/contact_lists/${id}/archive`,
});

export const contactListArchiveDescription = contactListArchive.properties;
