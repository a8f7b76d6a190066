import { archiveOperation, Resource } from '../../helpers/names';
import { describeResource } from '../describeResource';
import { contactArchive } from './archive.operation';

export const contactResource = describeResource({
	resource: Resource.Contact,
	noun: 'contact',
	defaultOperation: archiveOperation,
	operations: [contactArchive],
});
