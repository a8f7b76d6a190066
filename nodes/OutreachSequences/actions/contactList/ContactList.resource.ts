/** The Contact List resource: its Operation selector and operations. */
import { describeResource } from '../describeResource';
import { contactListArchive } from './archive.operation';

export const contactListResource = describeResource({
	resource: 'contactList',
	noun: 'contact list',
	defaultOperation: 'archive',
	operations: [contactListArchive],
});
