import { archiveOperation, Resource } from '../../describe/names';
import { describeResource } from '../../describe/resource';
import { contactArchive } from './archive';

export const contactResource = describeResource({
	resource: Resource.Contact,
	noun: 'contact',
	defaultOperation: archiveOperation,
	operations: [contactArchive],
});
