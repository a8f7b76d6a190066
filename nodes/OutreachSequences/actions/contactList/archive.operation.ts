/** Contact List › Archive: archives one contact list by its ID. */
import type { Operation } from '../../helpers/interfaces';
import { idField, requestById, toolDescription } from '../common.descriptions';

const contactListId = idField('contactListId', 'Contact List ID', 'e.g. {{ $json.listId }}');

export const contactListArchive: Operation = {
	option: {
		name: 'Archive',
		action: 'Archive a contact list',
		description:
			'Remove a contact list from active use. The service keeps it and can restore it later.',
	},
	operationId: 'archiveContactList',
	properties: [
		contactListId,
		toolDescription(
			'Archives one contact list in the outreach service: the list is removed from active use. Give Contact List ID, the identifier of the list exactly as the service knows it (not its name). Returns the archived list as JSON: id, name, description, status and contact count. If it fails, the result is one sentence saying what went wrong, for example that no such contact list exists.',
		),
	],
	buildRequest: requestById(contactListId, {
		method: 'POST',
		path: (id) => `/v1/contact_lists/${id}/archive`,
		subject: { noun: 'contact list', verb: 'archive', done: 'archived' },
	}),
};
