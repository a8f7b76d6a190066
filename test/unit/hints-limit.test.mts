// The limit hint (hints.ts): when the node's own in-flight limit held a run
// back at a far service, it names Request Options › Batching › Limit and
// Items per Batch. What a run's report holds for it, on the virtual clock:
// batching-limit.test.mts.
import { MAX_BATCH_SIZE } from '../../nodes/OutreachSequences/helpers/defaults.ts';
import type { LimitSummary } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';
import { FAR_MS, limitHint } from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import { HINT_BUDGET } from '../../nodes/OutreachSequences/run/outcome/words.ts';
import { clean } from './hints-helpers.mts';

/** 10 s, half of it at a limit of 32, every answer after 200 ms to 300 ms (1.5 × the quickest). */
const far: LimitSummary = {
	runMs: 10_000,
	fullMs: 5000,
	heldAt: 32,
	quickestAnswerMs: 200,
	meanAnswerMs: 300,
};
const hintOf = (limit: Partial<LimitSummary>, pushBacks = 0, waitedRequests = 0) =>
	limitHint({ ...clean, pushBacks, waitedRequests, limit: { ...far, ...limit } });

test('half the run at the limit, with no push-back, at a far service that kept up: one sentence names the setting', () => {
	const hint = hintOf({});
	expect(hint).toEqual({
		type: 'info',
		location: 'outputPane',
		message:
			'Most of this run had as many requests in flight as the node allows (up to 32), with no push-back: Request Options › Batching › Limit Fixed and a larger Items per Batch send more at once.',
	});
	expect(hintOf({ heldAt: MAX_BATCH_SIZE - 1 })!.message.length).toBeLessThanOrEqual(HINT_BUDGET);
});

test.each([
	['the limit full for less than half the run', { fullMs: 4999 }],
	['an answer quicker than a far service gives', { quickestAnswerMs: FAR_MS - 1 }],
	['answers that slowed as more went out (a busy service)', { meanAnswerMs: 301 }],
	['the limit at the most Items per Batch allows', { heldAt: MAX_BATCH_SIZE }],
	['nothing sent', { runMs: 0, fullMs: 0 }],
])('no hint with %s', (_, limit) => {
	expect(hintOf(limit)).toBeUndefined();
});

test('no hint when the service pushed back, or its pace held requests back', () => {
	expect(hintOf({}, 1)).toBeUndefined();
	expect(hintOf({}, 0, 1)).toBeUndefined();
});
