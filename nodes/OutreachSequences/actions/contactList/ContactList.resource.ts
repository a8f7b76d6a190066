import { archiveOperation, Resource } from '../../helpers/names';
import { describeResource } from '../describeResource';
import { contactListArchive } from './archive.operation';

export const contactListResource = describeResource({
	resource: Resource.ContactList,
	noun: 'contact list',
	defaultOperation: archiveOperation,
	operations: [contactListArchive],
});
