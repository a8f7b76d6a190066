/** Request Options, which apply to every operation: pacing, waits, timeouts, TLS and re-runs. */
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

// Get changes nothing, so the re-run options don't apply to it.
const onlyForChanges: IDisplayOptions = { hide: { '/operation': ['get'] } };

function optionGroup(spec: {
	displayName: string;
	name: string;
	setName: string;
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
		default: { [spec.setName]: {} },
		description: spec.description,
		options: [{ displayName: spec.displayName, name: spec.setName, values: spec.values }],
	};
}

export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description:
		'How fast to send, what to do when the service asks to wait, how long to wait for answers, and whether to accept unverified certificates',
	options: [
		optionGroup({
			displayName: 'Batching',
			name: 'batching',
			setName: 'batch',
			description: `How many requests go out at once, and whether in batches with a pause between them. Without it, up to ${MAX_IN_FLIGHT} at once, a new one as each ends.`,
			values: [
				{
					displayName: 'Items per Batch',
					name: 'batchSize',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
					default: MAX_IN_FLIGHT,
					description: `The most requests out at once, up to ${MAX_BATCH_SIZE}. With an interval of 0, a new one starts as each ends; with an interval, a batch starts when the one before has ended and the interval passed.`,
				},
				{
					displayName: 'Limit',
					name: 'limit',
					type: 'options',
					default: 'automatic',
					description:
						'How the requests out at once reach Items per Batch. Either way, after a 429 or 503 they halve, then grow back.',
					options: [
						{
							name: 'Automatic',
							value: 'automatic',
							description: 'Start with one, and add more as answers come back',
						},
						{
							name: 'Fixed',
							value: 'fixed',
							description: 'Items per Batch from the first request, for a far service',
						},
					],
				},
				{
					displayName: 'Batch Interval (Ms)',
					name: 'batchInterval',
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
			name: 'allowUnauthorizedCerts',
			type: 'boolean',
			default: false,
			description: 'Whether to connect even if SSL certificate validation is not possible',
		},
		optionGroup({
			displayName: 'Rate Limit Handling',
			name: 'rateLimitHandling',
			setName: 'settings',
			description:
				'On without this option: when the service asks to wait or fails for a moment, the item is sent again later. A create or archive the service may have carried out is never sent again.',
			values: [
				{
					displayName: 'Wait and Retry',
					name: 'enabled',
					type: 'boolean',
					default: true,
					description:
						'Whether to wait and send an item again when the service asks to wait or fails for a moment. Off: such an item fails at once.',
				},
				{
					displayName: 'Max Retries per Item',
					name: 'maxRetries',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: DEFAULT_MAX_RETRIES,
					description: 'How many times one item may be sent again before it fails',
				},
				{
					displayName: 'Max Wait (Seconds)',
					name: 'maxWait',
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
			name: 'skipDoneBefore',
			setName: 'keySettings',
			description:
				'What the node remembers: an item this node created or archived within the window is not sent again, in any execution (a schedule or polling trigger sends again unless the Key is set)',
			values: [
				{
					displayName: 'Key',
					name: 'key',
					type: 'string',
					default: '',
					placeholder: 'e.g. {{ $json.email }}',
					description:
						'What makes two items the same, such as an e-mail address or an order ID; left empty, the request as sent. Items with the same key in one run are each sent.',
				},
				{
					displayName: 'Window (Minutes)',
					name: 'windowMinutes',
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
			name: 'repeatRecentCreates',
			type: 'boolean',
			default: false,
			description:
				'Whether to send again an item the service confirmed within the window of Skip Items Done Before. An item it never confirmed still waits for Unconfirmed Earlier Try.',
			displayOptions: onlyForChanges,
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT_MS,
			description: `How long to wait for each answer before the item fails, in milliseconds. ${DEFAULT_TIMEOUT_MS} is ${DEFAULT_TIMEOUT_MS / 60_000} minutes.`,
		},
		{
			displayName: 'Unconfirmed Earlier Try',
			name: 'unconfirmedEarlierTry',
			type: 'options',
			default: 'fail',
			description:
				'An item sent before, by an earlier try or run, that the service never confirmed (a timeout, HTTP 5xx, a crash). Check in the service first.',
			options: [
				{
					name: 'Fail',
					value: 'fail',
					description: 'Fail it again, unsent, until you have checked in the service',
				},
				{
					name: 'Send Again',
					value: 'sendAgain',
					description: 'It was not carried out: send it again',
				},
				{
					name: 'Count as Done',
					value: 'countAsDone',
					description: 'It was carried out: output it as done, without sending it',
				},
			],
			displayOptions: onlyForChanges,
		},
	],
};
