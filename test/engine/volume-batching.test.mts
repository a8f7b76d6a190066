// 1,000 items with batching: the service never sees more than the batch size at once (volume.mts).
import { volumeSuite } from './volume.mts';

volumeSuite(
	'with batching (10 per batch)',
	{ batching: { batch: { batchSize: 10, batchInterval: 0 } } },
	10,
);
