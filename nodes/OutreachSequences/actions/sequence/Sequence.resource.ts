/** The Sequence resource: its Operation selector and operations. */
import { describeResource } from '../describeResource';
import { sequenceCreate } from './create.operation';

export const sequenceResource = describeResource({
	resource: 'sequence',
	noun: 'sequence',
	defaultOperation: 'create',
	operations: [sequenceCreate],
});
