import { getOperation, Resource } from '../../helpers/names';
import { describeResource } from '../describeResource';
import { useCaseGet } from './get.operation';

export const useCaseResource = describeResource({
	resource: Resource.UseCase,
	noun: 'use case',
	defaultOperation: getOperation,
	operations: [useCaseGet],
});
