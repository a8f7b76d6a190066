// 1,000 items without batching: the node stays within its own bound (volume.mts).
import { MAX_IN_FLIGHT } from '../../nodes/OutreachSequences/helpers/defaults.ts';
import { volumeSuite } from './volume.mts';

volumeSuite('without batching', {}, MAX_IN_FLIGHT);
