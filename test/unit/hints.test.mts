// The execution hints (run/outcome/hints.ts), by the facts each gives: what
// slowed a run, which items failed and whether the service may have acted,
// what a re-run or the memory did, and the way on; none for a clean run, no
// fact twice, and each within three lines of the output pane (HINT_BUDGET).
import type { NodeExecutionHint } from 'n8n-workflow';

import { MAX_BATCH_SIZE } from '../../nodes/OutreachSequences/helpers/defaults.ts';
import type { FailureGroup } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import {
	earlierTryHint,
	executionHints,
	failedItemsHint,
	FAR_MS,
	HINT_BUDGET,
	limitHint,
	memoryOffHint,
	rowFullHint,
	slowedHint,
} from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import type { RunSummary } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';
import { RunReport } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';

/** `items` items, those in `failed` failed in that group, with the names in `labels`. */
function failing(
	failed: Record<number, FailureGroup>,
	labels: Array<string | undefined> = [],
	items = 10,
): RunSummary {
	return new RunReport().summarize(
		Array.from({ length: items }, (_, index) => failed[index]),
		labels,
	);
}
const clean = failing({});
const sequence = { noun: 'sequence', verb: 'create', done: 'created' };
const create = { retryOnFail: false, readOnly: false, subject: sequence };
const read = { ...create, readOnly: true };
const HOUR = 3_600_000;
const with_ = (summary: RunSummary, more: Partial<RunSummary>) => ({ ...summary, ...more });
const earlier = (counts: RunSummary['earlierTry'], more: Partial<RunSummary> = {}) =>
	with_(clean, { earlierTry: counts, ...more });
const long = Array<string>(4).fill('Spring follow-up for the Q3 accounts');
const slowed = (more: Partial<RunSummary>, summary = clean) => slowedHint(with_(summary, more));
const far = { runMs: 10_000, fullMs: 5000, heldAt: 32, quickestAnswerMs: 200, meanAnswerMs: 300 };
const held = (limit: Partial<RunSummary['limit']>, more: Partial<RunSummary> = {}) =>
	limitHint(with_(clean, { limit: { ...far, ...limit }, ...more }));
const fail = (failed: Record<number, FailureGroup>, labels: string[] = [], setting = create) =>
	failedItemsHint(failing(failed, labels), setting);
const again = (counts: RunSummary['earlierTry'], more: Partial<RunSummary> = {}) =>
	earlierTryHint(earlier(counts, more), HOUR);
const forAll = (unconfirmedForAll: 'sendAgain' | 'countAsDone', setting = create) =>
	executionHints(clean, { ...setting, unconfirmedForAll })[0];

test.each<[string, NodeExecutionHint | undefined]>([
	[
		'info|2 times|3 items were sent again|7 requests waited 3.5 seconds|at most 2 seconds',
		slowed({
			pushBacks: 2,
			waitedRequests: 7,
			longestWaitMs: 2000,
			heldBackMs: 3500,
			retriedItems: 3,
		}),
	],
	[
		'info|3 times|2 items were sent again|3 items were not sent again|Rate Limit Handling',
		slowed({ pushBacks: 3, retriedItems: 2, notSentAgain: { exhausted: 1, waitTooLong: 2 } }),
	],
	[
		'info|before this run|3 requests waited 0.9 seconds',
		slowed({ waitedRequests: 3, longestWaitMs: 500, heldBackMs: 900 }),
	],
	[
		'info|3 items were sent again after a passing fault|!were sent again.',
		slowed({ retriedItems: 3, transientRetried: 3 }),
	],
	['info|looked down|probe|the run went on', slowed({ breakerOpened: 1 })],
	[
		'warning|looked down|stopped sending|once the service is back',
		slowed({ breakerOpened: 1 }, failing({ 3: 'serviceDown' })),
	],
	[
		'warning|3 of 10 items failed; item 0 ("S1") may have been created|check before sending it again|outcome }}|!S2',
		fail({ 0: 'mayHaveActed', 2: 'notActed', 5: 'notActed' }, ['S1', 'S2']),
	],
	[
		'warning|2 of 10|items 3 ("Spring follow-up for th…") and 4|sending them again',
		fail({ 3: 'mayHaveActed', 4: 'mayHaveActed' }, long),
	],
	[
		'warning|4 of 10 items failed: items 3 to 5 and 7|n8n refused 1 of them|administrator',
		fail({ 3: 'notActed', 4: 'notActed', 5: 'n8nRefused', 7: 'serviceDown' }),
	],
	[
		'warning|item 0 ("zz-404")|Sending it again is safe: the service did not act on it|says why',
		fail({ 0: 'notActed' }, ['zz-404']),
	],
	[
		'warning|2 of 10 items failed: items 0 ("uc-1") and 1|n8n refused them|administrator',
		fail({ 0: 'n8nRefused', 1: 'n8nRefused' }, ['uc-1'], read),
	],
	[
		'warning|1 of 10 items failed: item 1|safe: this operation changes nothing',
		fail({ 1: 'mayHaveActed' }, [], read),
	],
	[
		'info|ran this node again: 10 items were carried out|7 kept the earlier answer|(a, b, 1 more)',
		again({ answered: 3, kept: 7 }, { keptIds: ['a', 'b', 'c'] }),
	],
	[
		'info|n8n ran this node again.|3 counted as done and 2 sent again|Unconfirmed Earlier Try',
		again({ sentAgain: 2, countedAsDone: 3 }),
	],
	['info|5 items|2 had no answer kept|"skipped": true', again({ answered: 3, answerLost: 2 })],
	[
		'info|5 items were not sent again|1 hour|"skipped": true|Repeat Items Done Before sends them',
		again({ doneBefore: 5 }),
	],
	['warning|back to Fail|counts every unchecked item as done', forAll('countAsDone')],
	['warning|back to Fail|sends every unchecked item again|twice', forAll('sendAgain')],
	[
		'warning|60,000 items|keeps 50,000|within 1 hour|Loop Over Items',
		rowFullHint(60_000, 50_000, HOUR),
	],
	['info|up to 32|no push-back|Batching › Limit Fixed|Items per Batch', held({})],
	['warning|not saved|sends every item again|Save', memoryOffHint()],
])('%s', (facts, hint) => {
	const [type, ...said] = facts.split('|');
	expect(hint?.type).toBe(type);
	for (const fact of said)
		if (fact.startsWith('!')) expect(hint?.message).not.toContain(fact.slice(1));
		else expect(hint?.message).toContain(fact);
	expect(hint?.message.length).toBeLessThanOrEqual(HINT_BUDGET);
});

test.each<[string, NodeExecutionHint | undefined]>([
	['slowed: a clean run', slowedHint(clean)],
	['failed: a clean run', failedItemsHint(clean, create)],
	['failed: answers lost are not failures', failedItemsHint(earlier({ answerLost: 2 }), create)],
	['ran again: failed again (the failed-items hint says it)', again({ failedAgain: 1 })],
	['done before: no memory', earlierTryHint(earlier({ doneBefore: 3 }), undefined)],
	['Unconfirmed Earlier Try: a read', forAll('sendAgain', read)],
	['limit: full for less than half the run', held({ fullMs: 4999 })],
	['limit: a near service', held({ quickestAnswerMs: FAR_MS - 1 })],
	['limit: a service that slowed (busy)', held({ meanAnswerMs: 301 })],
	['limit: the most Items per Batch allows', held({ heldAt: MAX_BATCH_SIZE })],
	['limit: nothing sent', held({ runMs: 0, fullMs: 0 })],
	['limit: a push-back', held({}, { pushBacks: 1 })],
	['limit: a pace', held({}, { waitedRequests: 1 })],
])('no hint: %s', (_, hint) => {
	expect(hint).toBeUndefined();
});

test('Retry On Fail: a warning first for a create or an archive, none for a read; no fact twice among the hints', () => {
	const summary = with_(failing({ 0: 'mayHaveActed', 2: 'notActed' }, ['S1']), {
		pushBacks: 2,
		retriedItems: 2,
		notSentAgain: { waitTooLong: 2 },
	});
	const hints = executionHints(summary, { ...create, retryOnFail: true });
	expect(hints.map((hint) => hint.type)).toEqual(['warning', 'warning', 'info']);
	expect(hints[0].message).toMatch(/^Retry On Fail is on: .*only items the service refused/);
	const all = hints.map((hint) => hint.message).join(' ');
	for (const fact of [/of 10 items failed/g, /"S1"/g, /\{\{ \$json\.message\.outcome \}\}/g])
		expect(all.match(fact)).toHaveLength(1);
	expect(executionHints(clean, { ...read, retryOnFail: true })).toEqual([]);
});

test('every hint fits in three lines of the output pane, names and counts at their longest', () => {
	const big = 50_000;
	const ends = Object.fromEntries(
		Array.from({ length: 40 }, (_, i) => [i + 10, i % 3 ? 'mayHaveActed' : 'notActed'] as const),
	);
	const id = 'seq-0a1b2c3d-4e5f-6789-abcd-ef0123456789';
	const events = { answered: big, kept: big, answerLost: big, countedAsDone: big, sentAgain: big };
	const summary = with_(failing(ends, Array<string>(50).fill(long[0]), big), {
		...{ pushBacks: big, waitedRequests: big, retriedItems: big, transientRetried: big / 2 },
		...{ longestWaitMs: 60_000, heldBackMs: 4_500_000, breakerOpened: 3, keptIds: [id, id, id] },
		notSentAgain: { disabled: 1, exhausted: 100, waitTooLong: 200 },
		earlierTry: { ...events, doneBefore: big },
	});
	for (const readOnly of [false, true]) {
		const setting = { ...create, readOnly, retryOnFail: true, windowMs: 86_400_000 };
		const hints = executionHints(summary, { ...setting, unconfirmedForAll: 'sendAgain' });
		expect(hints.length).toBe(readOnly ? 3 : 5);
		for (const hint of hints) expect(hint.message.length).toBeLessThanOrEqual(HINT_BUDGET);
	}
	expect(rowFullHint(500_000, big, 86_400_000).message.length).toBeLessThanOrEqual(HINT_BUDGET);
});
