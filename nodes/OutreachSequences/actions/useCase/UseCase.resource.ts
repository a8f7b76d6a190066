/** The Use Case resource: its Operation selector and operations. */
import { describeResource } from '../describeResource';
import { useCaseGet } from './get.operation';

export const useCaseResource = describeResource({
	resource: 'useCase',
	noun: 'use case',
	defaultOperation: 'get',
	operations: [useCaseGet],
});
