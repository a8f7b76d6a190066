import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_RETRIES, DEFAULT_MAX_WAIT_SECONDS, DEFAULT_TIMEOUT_MS, MAX_IN_FLIGHT } from './defaults';
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

/**
 * What the AI Agent tells its model about this operation when the node is its
 * tool. n8n uses a node's own `toolDescription` field instead of adding its
 * generic one ("<action> in <node>"), and shows it only on the tool variant
 * (`@tool`); the user can still rewrite it there.
 */
export function toolDescriptionProperty(show: IDisplayOptions['show'], text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: Field.toolDescription,
		type: 'string',
		typeOptions: { rows: 4 },
		default: text,
		description: 'What the AI Agent tells its model this tool does and what to give it. The default is written for this operation.',
		displayOptions: { show: { ...show, '@tool': [true] } },
	};
}

/** Options that are added together, as one group of values (a fixedCollection with one set). */
function optionGroup(spec: { displayName: string; name: string; group: string; description: string; values: INodeProperties[] }): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		placeholder: `Add ${spec.displayName}`,
		type: 'fixedCollection',
		typeOptions: { multipleValues: false },
		default: { [spec.group]: {} },
		description: spec.description,
		options: [{ displayName: spec.displayName, name: spec.group, values: spec.values }],
	};
}

/** Pacing, timeout and TLS settings that apply to every operation. */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: Field.requestOptions,
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description:
		"How fast to send the requests, what to do when the service is rate-limiting, how long to wait for answers, and whether to accept unverified certificates",
	options: [
		optionGroup({
			displayName: 'Batching',
			name: Field.batching,
			group: Field.batch,
			description: `Send the items in fixed batches with a pause between them. Without batching, up to ${MAX_IN_FLIGHT} requests are in flight at once, and Rate Limit Handling adapts the pace to the service.`,
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
		}),
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: Field.allowUnauthorizedCerts,
			type: 'boolean',
			default: false,
			description: "Whether to connect even if the service's TLS certificate can't be verified",
		},
		optionGroup({
			displayName: 'Rate Limit Handling',
			name: Field.rateLimitHandling,
			group: Field.rateLimitSettings,
			description:
				"On unless turned off here. When the service answers 429 (rate limited) or 503 (unavailable), the node waits as long as the service asks (Retry-After), slows down, and sends that item again. A request the service may have carried out (a create after a timeout, a reset or a 5xx other than 503) is never sent again.",
			values: [
				{
					displayName: 'Wait and Retry',
					name: Field.retryEnabled,
					type: 'boolean',
					default: true,
					description:
						'Whether to wait and send an item again when the service is rate-limiting or unavailable. Off: such an item fails at once.',
				},
				{
					displayName: 'Max Retries per Item',
					name: Field.maxRetries,
					type: 'number',
					typeOptions: { minValue: 0 },
					default: DEFAULT_MAX_RETRIES,
					description: 'How many times one item may be sent again before it fails',
				},
				{
					displayName: 'Max Wait (Seconds)',
					name: Field.maxWait,
					type: 'number',
					typeOptions: { minValue: 0 },
					default: DEFAULT_MAX_WAIT_SECONDS,
					description:
						'The longest single wait the node accepts. If the service asks for a longer one, the item fails instead of waiting.',
				},
			],
		}),
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
