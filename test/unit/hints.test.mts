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

const waits = { waitedRequests: 7, longestWaitMs: 2000, heldBackMs: 3500, retriedItems: 3 };
const refused = { 3: 'notActed', 4: 'notActed', 5: 'n8nRefused', 7: 'serviceDown' } as const;
const lost = { answered: 3, answerLost: 2 };
const said = { sentAgain: 2, countedAsDone: 3 };
const downS = failing({ 3: 'serviceDown' });
test.each<[NodeExecutionHint | undefined, string]>([
	[slowed({ pushBacks: 2, ...waits }), 'info|2 times|3 items were sent|7 requests waited 3.5 s'],
	[slowed({ pushBacks: 3, notSentAgain: { exhausted: 3 } }), 'info|3 items were not sent again'],
	[slowed({ waitedRequests: 3 }), 'info|before this run|3 requests waited'],
	[slowed({ retriedItems: 3, transientRetried: 3 }), 'info|3 items were sent again after a'],
	[slowed({ breakerOpened: 1 }), 'info|looked down|probe|the run went on'],
	[slowed({}, downS), 'warning|looked down|stopped sending|once the service is back'],
	[fail({ 0: 'mayHaveActed', 2: 'notActed' }, ['S1', 'S2']), 'warning|item 0 ("S1") may|!S2'],
	[fail({ 0: 'mayHaveActed' }), 'warning|1 of 10 items failed; item 0 may have been created'],
	[
		fail({ 3: 'mayHaveActed', 4: 'mayHaveActed' }, long),
		'warning|3 ("Spring follow-up for th…") and 4',
	],
	[fail(refused), 'warning|failed: items 3 to 5 and 7|n8n refused 1 of them|administrator'],
	[fail({ 0: 'notActed' }, ['zz-404']), 'warning|item 0 ("zz-404")|safe: the service did not act'],
	[fail({ 0: 'n8nRefused', 1: 'n8nRefused' }, [], read), 'warning|items 0 and 1|n8n refused them'],
	[fail({ 1: 'mayHaveActed' }, [], read), 'warning|item 1. |safe: this operation changes nothing'],
	[
		again({ answered: 3, kept: 7 }, { keptIds: ['a', 'b', 'c'] }),
		'info|10 items were|(a, b, 1 more)',
	],
	[again(said), 'info|again.|3 counted as done and 2 sent again|Unconfirmed Earlier Try'],
	[again(lost), 'info|5 items|2 had no answer kept|"skipped": true'],
	[again({ doneBefore: 5 }), 'info|5 items were not sent again|1 hour|"skipped"|Repeat Items'],
	[forAll('countAsDone'), 'warning|back to Fail|counts every unchecked item as done'],
	[forAll('sendAgain'), 'warning|back to Fail|sends every unchecked item again|twice'],
	[rowFullHint(60_000, 50_000, HOUR), 'warning|60,000 items|keeps 50,000|1 hour|Loop Over Items'],
	[held({}), 'info|up to 32|no push-back|Batching › Limit Fixed|Items per Batch'],
	[memoryOffHint(), 'warning|not saved|sends every item again|Save'],
])('%#: %j', (hint, facts) => {
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
