import { getOperation, Resource } from '../../describe/names';
import { describeResource } from '../../describe/resource';
import { useCaseGet } from './get';

export const useCaseResource = describeResource({
	resource: Resource.UseCase,
	noun: 'use case',
	defaultOperation: getOperation,
	operations: [useCaseGet],
});
