import { createOperation, Resource } from '../../describe/names';
import { describeResource } from '../../describe/resource';
import { sequenceCreate } from './create';

export const sequenceResource = describeResource({
	resource: Resource.Sequence,
	noun: 'sequence',
	defaultOperation: createOperation,
	operations: [sequenceCreate],
});
