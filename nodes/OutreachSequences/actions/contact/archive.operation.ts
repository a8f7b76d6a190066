/** Contact › Archive: archives one contact by its ID. */
import type { Operation } from '../../helpers/interfaces';
import { idField, requestById, toolDescription } from '../common.descriptions';

const contactId = idField('contactId', 'Contact ID', 'e.g. {{ $json.id }}');

export const contactArchive: Operation = {
	option: {
		name: 'Archive',
		action: 'Archive a contact',
		description: 'Remove a contact from active use. The service keeps it and can restore it later.',
	},
	operationId: 'archiveContact',
	properties: [
		contactId,
		toolDescription(
			'Archives one contact in the outreach service: the contact is removed from active use. Give Contact ID, the identifier of the contact exactly as the service knows it (not a name or an e-mail address). Returns the archived contact as JSON: id, status, names, e-mails, phone numbers, business name, source and contact list IDs. If it fails, the result is one sentence saying what went wrong, for example that no such contact exists.',
		),
	],
	buildRequest: requestById(contactId, {
		method: 'POST',
		path: (id) => `/v1/contacts/${id}/archive`,
		subject: { noun: 'contact', verb: 'archive', done: 'archived' },
	}),
};
