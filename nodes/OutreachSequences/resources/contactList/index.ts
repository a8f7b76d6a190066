import { archiveOperation, Resource } from '../../describe/names';
import { describeResource } from '../../describe/resource';
import { contactListArchive } from './archive';

export const contactListResource = describeResource({
	resource: Resource.ContactList,
	noun: 'contact list',
	defaultOperation: archiveOperation,
	operations: [contactListArchive],
});
