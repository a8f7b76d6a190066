// The hints of passing faults and the circuit breaker: what happened, and
// that the failed-items hint, not this one, counts what was not sent. Moved
// whole from hints.test.mts (at most 250 lines a file). And the hints of the
// engine's and e2e's runs, whose words are asserted here only.
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

describe("the hints of the engine's and e2e's runs", () => {
	const archive = { ...create, subject: { noun: 'contact', verb: 'archive', done: 'archived' } };

	test('one that may have been archived, by name, and two that were not, by number', () => {
		const summary = failing(
			{ 1: 'rejected', 2: 'mayHaveActed', 3: 'notSent' },
			[undefined, undefined, '42'],
			4,
		);
		expect(failedItemsHint(summary, archive)?.message).toBe(
			'3 of 4 items failed: item 2 ("42") may have been archived: check before sending it again. Items 1 and 3 were not; {{ $json.message.outcome }} says which.',
		);
	});

	test('pushed back twice, one item sent again, every item done; pushed back once, not sent again', () => {
		const waited = { waitedRequests: 2, heldBackMs: 2000, longestWaitMs: 1000 };
		const once = { ...clean, items: 3, pushBacks: 2, retriedItems: 1, ...waited };
		expect(pushedBackHint(once)?.message).toBe(
			'The outreach service pushed back 2 times (HTTP 429, 503 or rate-limit headers): 1 item was sent again. 2 requests waited 2 seconds in all, at most 1 second. All 3 items succeeded.',
		);
		const summary = {
			...failing({ 1: 'rejected', 2: 'mayHaveActed' }, [], 3),
			pushBacks: 1,
			notSentAgain: { disabled: 0, exhausted: 0, waitTooLong: 1 },
		};
		expect(pushedBackHint(summary)?.message).toBe(
			'The outreach service pushed back 1 time (HTTP 429, 503 or rate-limit headers): 1 item was not sent again, as Request Options › Rate Limit Handling says.',
		);
	});
});
