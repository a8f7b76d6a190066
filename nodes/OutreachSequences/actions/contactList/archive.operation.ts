/** Contact List › Archive: archives one contact list by its ID. */
import { identifierOperation } from '../identifierOperation';

export const contactListArchive = identifierOperation({
	operationId: 'archiveContactList',
	option: {
		name: 'Archive',
		action: 'Archive a contact list',
		description:
			'Remove a contact list from active use. The service keeps it and can restore it later.',
	},
	request: {
		resource: 'contactList',
		operation: 'archive',
		method: 'POST',
		done: 'archived',
		path: (id) => `/v1/contact_lists/${id}/archive`,
	},
	field: {
		name: 'contactListId',
		displayName: 'Contact List ID',
		noun: 'contact list',
		placeholder: 'e.g. {{ $json.listId }}',
	},
	toolDescription:
		'Archives one contact list in the outreach service: the list is removed from active use. Give Contact List ID, the identifier of the list exactly as the service knows it (not its name). Returns the archived list as JSON: id, name, description, status and contact count. If it fails, the result is one sentence saying what went wrong, for example that no such contact list exists.',
});
