/** Contact › Archive: archives one contact by its ID. */
import { identifierOperation } from '../identifierOperation';

export const contactArchive = identifierOperation({
	operationId: 'archiveContact',
	option: {
		name: 'Archive',
		action: 'Archive a contact',
		description: 'Remove a contact from active use. The service keeps it and can restore it later.',
	},
	request: {
		resource: 'contact',
		operation: 'archive',
		method: 'POST',
		done: 'archived',
		path: (id) => `/v1/contacts/${id}/archive`,
	},
	field: {
		name: 'contactId',
		displayName: 'Contact ID',
		noun: 'contact',
		placeholder: 'e.g. {{ $json.id }}',
	},
	toolDescription:
		'Archives one contact in the outreach service: the contact is removed from active use. Give Contact ID, the identifier of the contact exactly as the service knows it (not a name or an e-mail address). Returns the archived contact as JSON: id, status, names, e-mails, phone numbers, business name, source and contact list IDs. If it fails, the result is one sentence saying what went wrong, for example that no such contact exists.',
});
