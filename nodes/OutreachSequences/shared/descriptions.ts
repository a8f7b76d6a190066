import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS, MAX_IN_FLIGHT } from './execute';
import { Field } from './names';

/** A required identifier that goes into the request path. */
export function identifierProperty(field: {
	name: string;
	displayName: string;
	description: string;
	placeholder: string;
	show: IDisplayOptions['show'];
}): INodeProperties {
	return {
		displayName: field.displayName,
		name: field.name,
		type: 'string',
		required: true,
		default: '',
		placeholder: field.placeholder,
		description: field.description,
		displayOptions: { show: field.show },
	};
}

/** Pacing, timeout and TLS settings that apply to every operation. */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: Field.requestOptions,
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'How fast to send the requests, how long to wait for answers, and whether to accept unverified certificates',
	options: [
		{
			displayName: 'Batching',
			name: Field.batching,
			placeholder: 'Add Batching',
			type: 'fixedCollection',
			typeOptions: { multipleValues: false },
			default: { [Field.batch]: {} },
			description: `Send the items in batches, to stay under the service's rate limit. Without batching, up to ${MAX_IN_FLIGHT} requests are in flight at once.`,
			options: [
				{
					displayName: 'Batching',
					name: Field.batch,
					values: [
						{
							displayName: 'Items per Batch',
							name: Field.batchSize,
							type: 'number',
							typeOptions: { minValue: 1 },
							default: 50,
							description: 'How many requests are in flight at once. The next batch starts once this one has finished.',
						},
						{
							displayName: 'Batch Interval (Ms)',
							name: Field.batchInterval,
							type: 'number',
							typeOptions: { minValue: 0 },
							default: 1000,
							description: 'How long to wait between batches, in milliseconds',
						},
					],
				},
			],
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: Field.allowUnauthorizedCerts,
			type: 'boolean',
			default: false,
			description: "Whether to connect even if the service's TLS certificate can't be verified",
		},
		{
			displayName: 'Timeout',
			name: Field.timeout,
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 10000,
			description: `How long to wait for the service to answer each request, in milliseconds, before that item fails. Without this option the limit is ${DEFAULT_TIMEOUT_MS} ms.`,
		},
	],
};
