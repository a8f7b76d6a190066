// The hints of passing faults and the circuit breaker: what happened, and
// that the failed-items hint, not this one, counts what was not sent. Moved
// whole from hints.test.mts (at most 250 lines a file).
import {
	failedItemsHint,
	passingFaultsHint,
	pushedBackHint,
} from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import { clean, create, failing } from './hints-helpers.mts';

describe('passing faults and the breaker', () => {
	test('items sent again after a passing fault: an info hint, and the push-back hint stays silent', () => {
		const summary = { ...clean, retriedItems: 3, transientRetried: 3 };
		expect(passingFaultsHint(summary)).toEqual({
			type: 'info',
			location: 'outputPane',
			message:
				'3 items were sent again after a passing fault (HTTP 500, 502 or 504, a reset or refused connection, or a timeout). The other items went on meanwhile.',
		});
		expect(pushedBackHint(summary)).toBeUndefined();
	});

	test('the breaker opened and its probe got an answer: the run went on', () => {
		expect(passingFaultsHint({ ...clean, breakerOpened: 1 })?.message).toBe(
			'The outreach service looked down, so the node paused and sent one request as a probe: it got an answer, and the run went on.',
		);
	});

	test('the probe failed too: a warning, what to do; how many were not sent is the failed-items hint', () => {
		const summary = { ...failing({ 3: 'serviceDown', 4: 'serviceDown' }), breakerOpened: 1 };
		expect(passingFaultsHint(summary)).toEqual({
			type: 'warning',
			location: 'outputPane',
			message:
				'The outreach service looked down, and a probe after a pause failed too, so the node stopped sending: send what it did not send once the service is back.',
		});
		expect(failedItemsHint(summary, create)?.message).toMatch(
			/^2 of 10 items failed: items 3 and 4\./,
		);
	});

	test('a clean run: nothing', () => {
		expect(passingFaultsHint(clean)).toBeUndefined();
	});
});
