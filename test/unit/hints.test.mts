// The execution hints' texts, for each case the issue names, and none for a
// clean run: each says first what happened and what to do, names the first
// failed items, says no fact twice and fits in three lines of the output
// pane (HINT_BUDGET; test/e2e/editor.e2e.mts measures the lines). The hints of
// re-runs: hints-re-run.test.mts; of passing faults and the breaker:
// hints-faults.test.mts.
import {
	executionHints,
	failedItemsHint,
	pushedBackHint,
	RETRY_ON_FAIL_TEXT,
	retryOnFailHint,
} from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import { HINT_BUDGET } from '../../nodes/OutreachSequences/run/outcome/words.ts';
import { clean, create, failing, sequence } from './hints-helpers.mts';

test('a clean run shows no hint', () => {
	expect(executionHints(clean, create)).toEqual([]);
});

describe('the service pushed back', () => {
	test('every item succeeded in the end: what it did, and how long requests waited', () => {
		const hint = pushedBackHint({
			...clean,
			pushBacks: 2,
			waitedRequests: 7,
			longestWaitMs: 2000,
			heldBackMs: 3500,
			retriedItems: 3,
		});
		expect(hint).toEqual({
			type: 'info',
			location: 'outputPane',
			message:
				'The outreach service pushed back 2 times (HTTP 429, 503 or rate-limit headers): 3 items were sent again. 7 requests waited 3.5 seconds in all, at most 2 seconds. All 10 items succeeded.',
		});
	});

	test('some items failed: the count of failed items is left to the failed-items hint', () => {
		const summary = {
			...failing({ 2: 'rejected' }),
			pushBacks: 1,
			waitedRequests: 1,
			longestWaitMs: 1000,
			heldBackMs: 1000,
			retriedItems: 4,
			retriedFailed: 1,
		};
		const message = pushedBackHint(summary)?.message;
		expect(message).toBe(
			'The outreach service pushed back 1 time (HTTP 429, 503 or rate-limit headers): 4 items were sent again. 1 request waited 1 second in all, at most 1 second.',
		);
		expect(message).not.toMatch(/failed|succeeded/);
		expect(failedItemsHint(summary, create)?.message).toMatch(/^1 of 10 items failed: item 2/);
	});

	test('items it pushed back on that were not sent again point to Rate Limit Handling; their errors say why', () => {
		const summary = {
			...failing({ 1: 'rejected', 2: 'rejected', 3: 'rejected' }),
			pushBacks: 3,
			retriedItems: 2,
			notSentAgain: { disabled: 0, exhausted: 1, waitTooLong: 2 },
		};
		expect(pushedBackHint(summary)?.message).toBe(
			'The outreach service pushed back 3 times (HTTP 429, 503 or rate-limit headers): 2 items were sent again, and 3 were not, as Request Options › Rate Limit Handling says.',
		);
		expect(
			pushedBackHint({
				...summary,
				retriedItems: 0,
				notSentAgain: { ...summary.notSentAgain, waitTooLong: 0 },
			})?.message,
		).toContain(': 1 item was not sent again, as Request Options › Rate Limit Handling says.');
	});

	test('a run slowed only by a pace other executions learned says so', () => {
		expect(
			pushedBackHint({ ...clean, waitedRequests: 3, longestWaitMs: 500, heldBackMs: 900 })?.message,
		).toBe(
			'The outreach service had pushed back before this run, so the node kept to its pace. 3 requests waited 0.9 seconds in all, at most 0.5 seconds. All 10 items succeeded.',
		);
	});
});

describe('failed items', () => {
	test('some may have been created: those first, the first by its name, and to check them; then the others by number, and the expression that says which', () => {
		const summary = failing({ 0: 'mayHaveActed', 2: 'rejected' }, ['S1', 'S2', 'S3']);
		const hint = failedItemsHint(summary, { ...create, subject: sequence });
		expect(hint).toEqual({
			type: 'warning',
			location: 'outputPane',
			message:
				'2 of 10 items failed: item 0 ("S1") may have been created: check before sending it again. Item 2 was not; {{ $json.message.outcome }} says which.',
		});
	});

	test('an earlier try left the outcome unknown: it may have been done too', () => {
		const message = failedItemsHint(
			failing({ 3: 'unknownBefore', 4: 'mayHaveActed' }, ['', '', '', 'S4', 'S5']),
			{ ...create, subject: sequence },
		)?.message;
		expect(message).toBe(
			'2 of 10 items failed: items 3 ("S4") and 4 may have been created: check before sending them again. {{ $json.message.outcome }} is "mayHaveActed" for them.',
		);
	});

	test('many of both, with long names: the others by count where their numbers do not fit', () => {
		const names = Array.from({ length: 50 }, (_, index) => `Spring follow-up, part ${index}`);
		const failed = Object.fromEntries(
			Array.from({ length: 40 }, (_, index) => [
				index + 10,
				index % 3 === 0 ? ('rejected' as const) : ('mayHaveActed' as const),
			]),
		);
		expect(
			failedItemsHint(failing(failed, names, 50), { ...create, subject: sequence })?.message,
		).toBe(
			'40 of 50 items failed: items 11 ("Spring follow-up, part …"), 12, 14 and 23 more may have been created: check before sending them again. 14 were not; {{ $json.message.outcome }} says which.',
		);
	});

	test('none the service acted on: by number, the first by its name, and that sending them again is safe', () => {
		expect(failedItemsHint(failing({ 0: 'rejected' }, ['zz-404'], 2), create)?.message).toBe(
			'1 of 2 items failed: item 0 ("zz-404"). The service did not act on it: sending it again is safe. Its error says why, and {{ $json.message.outcome }} its outcome.',
		);
		// Items whose requests were never made have no name: their numbers, as ranges.
		expect(
			failedItemsHint(
				failing({ 3: 'notSent', 4: 'notSent', 5: 'n8nRefused', 7: 'serviceDown' }),
				create,
			)?.message,
		).toMatch(/^4 of 10 items failed: items 3 to 5 and 7\. The service did not act on them:/);
	});

	test('n8n refused the requests: the hint counts them, and sends the user to their errors, not to sending again', () => {
		expect(
			failedItemsHint(failing({ 0: 'n8nRefused', 1: 'n8nRefused' }, ['uc-1'], 2), {
				...create,
				readOnly: true,
			})?.message,
		).toBe(
			'2 of 2 items failed: items 0 ("uc-1") and 1. n8n refused 2 requests by its settings for where requests may go: their errors say what an administrator can set.',
		);
	});

	test('for an operation that changes nothing, sending again is safe whatever happened', () => {
		const message = failedItemsHint(failing({ 1: 'mayHaveActed' }), {
			...create,
			readOnly: true,
		})?.message;
		expect(message).toBe(
			'1 of 10 items failed: item 1. Sending it again is safe: this operation changes nothing. Its error says why, and {{ $json.message.outcome }} its outcome.',
		);
	});

	test('no fact twice: the tally once among all hints, each item named once', () => {
		const summary = {
			...failing({ 0: 'mayHaveActed', 2: 'rejected', 5: 'rejected' }, ['S1', 'S2', 'S3']),
			pushBacks: 2,
			retriedItems: 2,
			notSentAgain: { disabled: 0, exhausted: 0, waitTooLong: 2 },
		};
		const hints = executionHints(summary, { ...create, retryOnFail: true, subject: sequence });
		const all = hints.map((hint) => hint.message).join(' ');
		expect(all.match(/of 10 items failed/g)).toHaveLength(1);
		expect(all.match(/"S1"/g)).toHaveLength(1);
		expect(all.match(/\{\{ \$json\.message\.outcome \}\}/g)).toHaveLength(1);
	});
});

test('Retry On Fail: a warning for operations that change something, none for Get Use Case', () => {
	const warning = retryOnFailHint({ retryOnFail: true, readOnly: false });
	expect(warning).toEqual({ type: 'warning', location: 'outputPane', message: RETRY_ON_FAIL_TEXT });
	// What n8n does, and what goes out again: only what the service refused.
	expect(RETRY_ON_FAIL_TEXT).toMatch(
		/^Retry On Fail is on: n8n runs this node again with every item, and only items the service refused go out again\./,
	);
	expect(retryOnFailHint({ retryOnFail: true, readOnly: true })).toBeUndefined();
	expect(retryOnFailHint(create)).toBeUndefined();
});

test('a clean run with Retry On Fail on shows only that warning; a failed run shows it first', () => {
	expect(executionHints(clean, { retryOnFail: true, readOnly: false })).toHaveLength(1);
	const failed = executionHints(
		{ ...failing({ 1: 'rejected' }), pushBacks: 1 },
		{ retryOnFail: true, readOnly: false },
	);
	expect(failed.map((hint) => [hint.type, hint.message.slice(0, 14)])).toEqual([
		['warning', 'Retry On Fail '],
		['warning', '1 of 10 items '],
		['info', 'The outreach s'],
	]);
});

test('every hint fits in three lines of the output pane, names and counts at their longest', () => {
	const names = Array.from(
		{ length: 50 },
		(_, index) => `Spring follow-up for the Q${index} accounts`,
	);
	const ends = Object.fromEntries(
		Array.from({ length: 40 }, (_, index) => [
			index + 10,
			index % 3 === 0 ? ('rejected' as const) : ('mayHaveActed' as const),
		]),
	);
	const summary = {
		...failing(ends, names, 50_000),
		pushBacks: 12_345,
		waitedRequests: 37_000,
		longestWaitMs: 60_000,
		heldBackMs: 4_500_000,
		retriedItems: 20_000,
		transientRetried: 10_000,
		breakerOpened: 3,
		notSentAgain: { disabled: 1, exhausted: 100, waitTooLong: 200 },
	};
	for (const readOnly of [false, true]) {
		const hints = executionHints(summary, { retryOnFail: true, readOnly, subject: sequence });
		expect(hints.length).toBeGreaterThanOrEqual(3);
		for (const hint of hints) expect(hint.message.length).toBeLessThanOrEqual(HINT_BUDGET);
	}
});
