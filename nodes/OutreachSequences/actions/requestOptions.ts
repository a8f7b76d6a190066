/** Request Options, which apply to every operation: how fast to send, what to do when the service asks to wait, and the rest. */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_WINDOW_MINUTES,
	DEFAULT_MAX_RETRIES,
	DEFAULT_MAX_WAIT_SECONDS,
	DEFAULT_TIMEOUT_MS,
	MAX_BATCH_SIZE,
	MAX_IN_FLIGHT,
	NO_PAUSE_MS,
} from '../helpers/defaults';
import {
	BatchLimit,
	defaultBatchLimit,
	defaultUnconfirmed,
	Field,
	Operation,
	Unconfirmed,
} from '../helpers/names';

/** Options that only an operation that changes something needs: not Get. */
const onlyForChanges: IDisplayOptions = { hide: { '/operation': [Operation.Get] } };

/** Options that are added together, as one group of values (a fixedCollection with one set). */
function optionGroup(spec: {
	displayName: string;
	name: string;
	group: string;
	description: string;
	values: INodeProperties[];
	displayOptions?: IDisplayOptions;
}): INodeProperties {
	return {
		...(spec.displayOptions ? { displayOptions: spec.displayOptions } : {}),
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
		'How fast to send, what to do when the service asks to wait, how long to wait for answers, and whether to accept unverified certificates',
	options: [
		optionGroup({
			displayName: 'Batching',
			name: Field.batching,
			group: Field.batch,
			description: `How many requests go out at once, and whether in batches with a pause between them. Without it, up to ${MAX_IN_FLIGHT} at once, a new one as each ends.`,
			values: [
				{
					displayName: 'Items per Batch',
					name: Field.batchSize,
					type: 'number',
					typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
					default: MAX_IN_FLIGHT,
					description: `The most requests out at once, up to ${MAX_BATCH_SIZE}. With an interval of 0, a new one starts as each ends; with an interval, a batch starts when the one before has ended and the interval passed.`,
				},
				{
					displayName: 'Limit',
					name: Field.batchLimit,
					type: 'options',
					default: defaultBatchLimit,
					description:
						'How the requests out at once reach Items per Batch. Either way, after a 429 or 503 they halve, then grow back.',
					options: [
						{
							name: 'Automatic',
							value: BatchLimit.Automatic,
							description: 'Start with one, and add more as answers come back',
						},
						{
							name: 'Fixed',
							value: BatchLimit.Fixed,
							description: 'Items per Batch from the first request, for a far service',
						},
					],
				},
				{
					displayName: 'Batch Interval (Ms)',
					name: Field.batchInterval,
					type: 'number',
					typeOptions: { minValue: 0 },
					default: NO_PAUSE_MS,
					description:
						'How long to wait between batches, in milliseconds. 0 sends no batches: Items per Batch is then only the most requests out at once.',
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
				'On without this option: when the service asks to wait or fails for a moment, the item is sent again later. A create or archive the service may have carried out is never sent again.',
			values: [
				{
					displayName: 'Wait and Retry',
					name: Field.retryEnabled,
					type: 'boolean',
					default: true,
					description:
						'Whether to wait and send an item again when the service asks to wait or fails for a moment. Off: such an item fails at once.',
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
						'The longest single wait to accept. If the service asks for a longer one, the item fails instead of waiting.',
				},
			],
		}),
		optionGroup({
			displayName: 'Skip Items Done Before',
			name: Field.skipDoneBefore,
			group: Field.keySettings,
			description:
				'What the node remembers: an item this node created or archived within the window is not sent again, in any execution (a schedule or polling trigger sends again unless the Key is set)',
			values: [
				{
					displayName: 'Key',
					name: Field.doneKey,
					type: 'string',
					default: '',
					placeholder: 'e.g. {{ $json.email }}',
					description:
						'What makes two items the same, such as an e-mail address or an order ID; left empty, the request as sent. Items with the same key in one run are each sent.',
				},
				{
					displayName: 'Window (Minutes)',
					name: Field.windowMinutes,
					type: 'number',
					typeOptions: { minValue: 1 },
					default: DEFAULT_WINDOW_MINUTES,
					description:
						'How long an item is remembered after the last execution that met it (1440 is a day); a changed Window starts afresh, and knows no item done under the old one',
				},
			],
			displayOptions: onlyForChanges,
		}),
		{
			displayName: 'Repeat Items Done Before',
			name: Field.repeatRecentCreates,
			type: 'boolean',
			default: false,
			description:
				'Whether to send again an item the service confirmed within the window of Skip Items Done Before. An item it never confirmed still waits for Unconfirmed Earlier Try.',
			displayOptions: onlyForChanges,
		},
		{
			displayName: 'Timeout (Ms)',
			name: Field.timeout,
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT_MS,
			description: `How long to wait for each answer before the item fails, in milliseconds. ${DEFAULT_TIMEOUT_MS} is ${DEFAULT_TIMEOUT_MS / 60_000} minutes.`,
		},
		{
			displayName: 'Unconfirmed Earlier Try',
			name: Field.unconfirmed,
			type: 'options',
			default: defaultUnconfirmed,
			description:
				'An item sent before, by an earlier try or run, that the service never confirmed (a timeout, HTTP 5xx, a crash). Check in the service first.',
			options: [
				{
					name: 'Fail',
					value: Unconfirmed.Fail,
					description: 'Fail it again, unsent, until you have checked in the service',
				},
				{
					name: 'Send Again',
					value: Unconfirmed.SendAgain,
					description: 'It was not carried out: send it again',
				},
				{
					name: 'Count as Done',
					value: Unconfirmed.CountAsDone,
					description: 'It was carried out: output it as done, without sending it',
				},
			],
			displayOptions: onlyForChanges,
		},
	],
};
