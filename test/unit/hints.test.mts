// The execution hints' texts, for each case the issue names, and none for a
// clean run. The hints of re-runs: hints-re-run.test.mts.
import {
	executionHints,
	failedItemsHint,
	passingFaultsHint,
	pushedBackHint,
	retryOnFailHint,
} from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import { clean, create } from './hints-helpers.mts';

test('a clean run shows no hint', () => {
	expect(executionHints(clean, create)).toEqual([]);
});

test('the service pushed back and every item succeeded in the end', () => {
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
			'The outreach service pushed back 2 times (HTTP 429 or 503, or rate-limit headers that said its quota was used up). 7 requests waited before going out: 3.5 seconds in all, the longest wait 2 seconds. 3 items were sent again; all of them succeeded. All 10 items succeeded.',
	});
});

test('the service pushed back and some retried items still failed', () => {
	const hint = pushedBackHint({
		...clean,
		pushBacks: 1,
		waitedRequests: 1,
		longestWaitMs: 1000,
		heldBackMs: 1000,
		retriedItems: 4,
		retriedFailed: 1,
		failed: { ...clean.failed, rejected: 1 },
	});
	expect(hint?.message).toBe(
		'The outreach service pushed back 1 time (HTTP 429 or 503, or rate-limit headers that said its quota was used up). 1 request waited before going out: 1 second in all, the longest wait 1 second. 4 items were sent again; 1 of them did not succeed. 1 of 10 items failed.',
	);
});

test('items the service pushed back on that were not sent again say why', () => {
	const hint = pushedBackHint({
		...clean,
		pushBacks: 3,
		notSentAgain: { disabled: 0, exhausted: 1, waitTooLong: 2 },
		failed: { ...clean.failed, rejected: 3 },
	});
	expect(hint?.message).toBe(
		'The outreach service pushed back 3 times (HTTP 429 or 503, or rate-limit headers that said its quota was used up). 3 items were not sent again (Request Options › Rate Limit Handling): 2 because the service asked for a longer wait than Max Wait (Seconds) allows, 1 after Max Retries per Item. 3 of 10 items failed.',
	);
	expect(
		pushedBackHint({
			...clean,
			pushBacks: 1,
			notSentAgain: { disabled: 1, exhausted: 0, waitTooLong: 0 },
			failed: { ...clean.failed, rejected: 1 },
		})?.message,
	).toContain(
		'1 item was not sent again (Request Options › Rate Limit Handling): 1 because Wait and Retry is off.',
	);
});

test('a run slowed only by a pace other executions learned says so', () => {
	expect(
		pushedBackHint({ ...clean, waitedRequests: 3, longestWaitMs: 500, heldBackMs: 900 })?.message,
	).toBe(
		'The outreach service had pushed back before this run, so the node went at the pace the service set. 3 requests waited before going out: 0.9 seconds in all, the longest wait 0.5 seconds. All 10 items succeeded.',
	);
});

test('failed items, grouped by cause, with what to check before sending again', () => {
	const hint = failedItemsHint(
		{
			...clean,
			failed: { ...clean.failed, notSent: 1, rejected: 2, unreached: 1, mayHaveActed: 3 },
		},
		create,
	);
	expect(hint?.type).toBe('warning');
	expect(hint?.location).toBe('outputPane');
	expect(hint?.message).toBe(
		'7 of 10 items failed. 2 were refused by the service, which did not act on them (outcome "notActed"); 1 was never sent: the input or the credential did not pass validation (outcome "notActed"); 1 never reached the service: the connection was refused, or its host or certificate failed (outcome "notActed"); 3 may have been carried out: the service timed out, reset the connection or failed with HTTP 5xx after they were sent (outcome "mayHaveActed"). Before sending those items again, check in the outreach service whether they were carried out, or they may be carried out twice. Each item\'s error says what happened, and {{ $json.message.outcome }} its outcome.',
	);
});

test('only the groups that happened are named', () => {
	const message = failedItemsHint(
		{ ...clean, items: 1, failed: { ...clean.failed, rejected: 1 } },
		create,
	)?.message;
	expect(message).toBe(
		'1 of 1 item failed. 1 was refused by the service, which did not act on it (outcome "notActed"). Each item\'s error says what happened, and {{ $json.message.outcome }} its outcome.',
	);
	expect(message).not.toContain('mayHaveActed');
});

test('for an operation that changes nothing, sending again is said to be safe', () => {
	const message = failedItemsHint(
		{ ...clean, failed: { ...clean.failed, mayHaveActed: 1 } },
		{ retryOnFail: false, readOnly: true },
	)?.message;
	expect(message).toContain('This operation changes nothing, so sending those again is safe.');
	expect(message).not.toContain('check in the outreach service');
});

test('Retry On Fail: a warning for operations that change something, none for Get Use Case', () => {
	const warning = retryOnFailHint({ retryOnFail: true, readOnly: false });
	expect(warning).toMatchObject({ type: 'warning', location: 'outputPane' });
	// Two sentences: what n8n does, and what the node sends again (only what the service refused).
	expect(warning?.message.match(/\.(\s|$)/g)).toHaveLength(2);
	expect(warning?.message).toMatch(
		/^Retry On Fail is on: n8n runs this node again, with every item/,
	);
	expect(warning?.message).toContain('Only items the service refused go out again');
	expect(warning?.message).not.toContain('twice');
	expect(retryOnFailHint({ retryOnFail: true, readOnly: true })).toBeUndefined();
	expect(retryOnFailHint(create)).toBeUndefined();
});

test('a clean run with Retry On Fail on shows only that warning; a failed run shows it first', () => {
	expect(
		executionHints(clean, { retryOnFail: true, readOnly: false }).map((hint) =>
			hint.message.slice(0, 25),
		),
	).toEqual(['Retry On Fail is on: n8n ']);
	const failed = executionHints(
		{ ...clean, pushBacks: 1, failed: { ...clean.failed, rejected: 1 } },
		{ retryOnFail: true, readOnly: false },
	);
	expect(failed.map((hint) => hint.type)).toEqual(['warning', 'warning', 'info']);
});

describe('passing faults and the breaker', () => {
	test('items sent again after a passing fault: an info hint, and the push-back hint stays silent', () => {
		const summary = { ...clean, retriedItems: 3, transientRetried: 3 };
		expect(passingFaultsHint(summary)).toEqual({
			type: 'info',
			location: 'outputPane',
			message:
				'3 items met a passing fault (HTTP 5xx other than 503, a reset or refused connection, or a timeout) and were sent again after a short wait of their own; the other items went on.',
		});
		expect(pushedBackHint(summary)).toBeUndefined();
	});

	test('the breaker opened and its probe got an answer: the run went on', () => {
		expect(passingFaultsHint({ ...clean, breakerOpened: 1 })?.message).toBe(
			'The service looked down: most recent requests to it got no useful answer, so the node stopped sending, paused, and sent one request as a probe. The probe got an answer, so the run went on.',
		);
	});

	test('the probe failed too: a warning, with how many items were not sent', () => {
		const summary = { ...clean, breakerOpened: 1, failed: { ...clean.failed, serviceDown: 7 } };
		expect(passingFaultsHint(summary)).toMatchObject({
			type: 'warning',
			message: expect.stringMatching(
				/The probe failed too, so 7 items were not sent, or not sent again\. Send them again once the service is back\.$/,
			),
		});
		expect(failedItemsHint(summary, create)?.message).toContain(
			'7 were not sent, or not sent again, because the service looked down',
		);
	});

	test('a clean run: nothing', () => {
		expect(passingFaultsHint(clean)).toBeUndefined();
	});
});
