/** The Contact resource: its option, Operation selector and operations. */
import { describeResource } from '../describeResource';
import { contactArchive } from './archive.operation';

export const contactResource = describeResource({
	option: { name: 'Contact', value: 'contact', description: 'A person the service reaches out to' },
	defaultOperation: 'archive',
	operations: { archive: contactArchive },
});
