/** The Contact resource: its Operation selector and operations. */
import { describeResource } from '../describeResource';
import { contactArchive } from './archive.operation';

export const contactResource = describeResource({
	resource: 'contact',
	noun: 'contact',
	defaultOperation: 'archive',
	operations: [contactArchive],
});
