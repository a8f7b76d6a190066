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
	toolDescription:
		'Archives one contact in the outreach service: the contact is removed from active use. Give Contact ID, the identifier of the contact exactly as the service knows it (not a name or an e-mail address). Returns the archived contact as JSON: id, status, names, e-mails, phone numbers, business name, source and contact list IDs. If it fails, the result is one sentence saying what went wrong, for example that no such contact exists.',
	path: (id) => `/v1/contacts/${id}/archive`,
});

export const contactArchiveDescription = contactArchive.properties;
