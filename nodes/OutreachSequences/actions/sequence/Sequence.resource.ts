import { createOperation, Resource } from '../../helpers/names';
import { describeResource } from '../describeResource';
import { sequenceCreate } from './create.operation';

export const sequenceResource = describeResource({
	resource: Resource.Sequence,
	noun: 'sequence',
	defaultOperation: createOperation,
	operations: [sequenceCreate],
});
