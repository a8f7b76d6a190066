// What the editor shows an ops person: options that change nothing by being
// added, each one's default what the node does without it
// (helpers/defaults.ts). Hints: editor-texts.test.mts.
import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { OutreachSequences } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';
import {
	DEFAULT_MAX_RETRIES,
	DEFAULT_MAX_WAIT_SECONDS,
	DEFAULT_TIMEOUT_MS,
	DEFAULT_WINDOW_MINUTES,
	MAX_BATCH_SIZE,
	MAX_IN_FLIGHT,
	NO_PAUSE_MS,
} from '../../nodes/OutreachSequences/helpers/defaults.ts';
import { batchingOf } from '../../nodes/OutreachSequences/run/n8n/settings.ts';
import { retryPolicyOf } from '../../nodes/OutreachSequences/run/loop/retry.ts';

const { description } = new OutreachSequences();

/** Every value a user adds with "Add Option" or "Add Field", by its path of stored names. */
function addedValues(
	properties: INodeProperties[],
	prefix = '',
): Array<{ path: string; property: INodeProperties }> {
	return properties.flatMap((property) => {
		const path = `${prefix}${property.name}`;
		if (property.type === 'collection') {
			return (property.options as INodeProperties[]).flatMap((option) => [
				...(option.type === 'fixedCollection'
					? []
					: [{ path: `${path}.${option.name}`, property: option }]),
				...addedValues(option.type === 'fixedCollection' ? [option] : [], `${path}.`),
			]);
		}
		if (property.type === 'fixedCollection' && property.typeOptions?.multipleValues !== true) {
			return (property.options as INodePropertyCollection[]).flatMap((group) =>
				group.values.map((value) => ({
					path: `${path}.${group.name}.${value.name}`,
					property: value,
				})),
			);
		}
		return [];
	});
}

/**
 * What the node does when each of them is not added, as helpers/defaults.ts
 * states it. Schedules is not here: it is a list of rows, not a setting, and a
 * row added is a step sent.
 */
const WITHOUT_IT: Record<string, unknown> = {
	'requestOptions.batching.batch.batchSize': MAX_IN_FLIGHT,
	'requestOptions.batching.batch.batchInterval': NO_PAUSE_MS,
	// Automatic: the pacer's slow start up to Items per Batch, as without the option.
	'requestOptions.batching.batch.limit': 'automatic',
	'requestOptions.allowUnauthorizedCerts': false,
	'requestOptions.rateLimitHandling.settings.enabled': true,
	'requestOptions.rateLimitHandling.settings.maxRetries': DEFAULT_MAX_RETRIES,
	'requestOptions.rateLimitHandling.settings.maxWait': DEFAULT_MAX_WAIT_SECONDS,
	'requestOptions.timeout': DEFAULT_TIMEOUT_MS,
	// An item an earlier try sent without a confirmation fails again, unsent, as without the option.
	'requestOptions.unconfirmedEarlierTry': 'fail',
	// An empty Key: no item is skipped, and the window is read only with a key.
	'requestOptions.skipDoneBefore.keySettings.key': '',
	'requestOptions.skipDoneBefore.keySettings.windowMinutes': DEFAULT_WINDOW_MINUTES,
	// Off: a create this node made lately is not made again, as without the option.
	'requestOptions.repeatRecentCreates': false,
	// An empty text field is not sent, as if it were not added.
	'additionalFields.description': '',
	'additionalFields.criteria': '',
	'additionalFields.timezone': '',
};

describe('an option changes nothing by being added', () => {
	const added = addedValues(description.properties);

	test('every option is listed here with what the node does without it', () => {
		expect(added.map(({ path }) => path).sort()).toEqual(Object.keys(WITHOUT_IT).sort());
	});

	test.each(Object.entries(WITHOUT_IT))(
		'%s: its default is %p, the behaviour without it',
		(path, without) => {
			expect(added.find((entry) => entry.path === path)?.property.default).toEqual(without);
		},
	);

	const defaultsOf = (group: string) =>
		Object.fromEntries(
			added
				.filter(({ path }) => path.startsWith(group))
				.map(({ path, property }) => [path.split('.').pop(), property.default]),
		);

	test('Rate Limit Handling added as it comes is the policy the node follows without it', () => {
		const settings = defaultsOf('requestOptions.rateLimitHandling.settings.');
		expect(Object.keys(settings).sort()).toEqual(['enabled', 'maxRetries', 'maxWait']);
		expect(retryPolicyOf({ rateLimitHandling: { settings } })).toEqual(retryPolicyOf({}));
	});

	test('Batching added as it comes is how the node sends without it: as many at once, as a rolling window', () => {
		const batch = defaultsOf('requestOptions.batching.batch.');
		expect(batchingOf({ batching: { batch } })).toEqual(batchingOf({}));
	});

	test('Batching with an interval sends batches that wait for each other', () => {
		expect(batchingOf({ batching: { batch: { batchSize: 5, batchInterval: 100 } } })).toEqual({
			groupSize: 5,
			pauseMs: 100,
			fixed: false,
		});
	});

	test(`Batching's Limit Fixed opens Items per Batch from the first request; Items per Batch is at most ${MAX_BATCH_SIZE}`, () => {
		const fixed = (batchSize: number) =>
			batchingOf({ batching: { batch: { batchSize, limit: 'fixed' } } });
		expect(fixed(256)).toEqual({ groupSize: 256, pauseMs: 0, fixed: true });
		expect(fixed(MAX_BATCH_SIZE + 1).groupSize).toBe(MAX_BATCH_SIZE);
		const itemsPerBatch = added.find(({ path }) => path.endsWith('.batchSize'))?.property;
		expect(itemsPerBatch?.typeOptions).toEqual({ minValue: 1, maxValue: MAX_BATCH_SIZE });
	});

	test('the labels of numbers with a unit name it', () => {
		const labels = added
			.filter(({ property }) => property.type === 'number')
			.map(({ property }) => property.displayName);
		expect(labels.sort()).toEqual([
			'Batch Interval (Ms)',
			'Items per Batch',
			'Max Retries per Item',
			'Max Wait (Seconds)',
			'Timeout (Ms)',
			'Window (Minutes)',
		]);
	});
});
