/** The Contact List resource: its option, Operation selector and operations. */
import { describeResource } from '../describeResource';
import { contactListArchive } from './archive.operation';

export const contactListResource = describeResource({
	option: { name: 'Contact List', value: 'contactList', description: 'A group of contacts' },
	defaultOperation: 'archive',
	operations: { archive: contactListArchive },
});
