/** The Use Case resource: its option, Operation selector and operations. */
import { describeResource } from '../describeResource';
import { useCaseGet } from './get.operation';

export const useCaseResource = describeResource({
	option: {
		name: 'Use Case',
		value: 'useCase',
		description: 'A goal with actions that phone scripts refer to',
	},
	defaultOperation: 'get',
	operations: { get: useCaseGet },
});
