/** The Sequence resource: its option, Operation selector and operations. */
import { describeResource } from '../describeResource';
import { sequenceCreate } from './create.operation';

export const sequenceResource = describeResource({
	option: {
		name: 'Sequence',
		value: 'sequence',
		description: 'An outreach plan made of schedule steps',
	},
	defaultOperation: 'create',
	operations: { create: sequenceCreate },
});
