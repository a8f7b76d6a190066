// The words of re-runs and of the memory (run/outcome/reRunTexts.ts), and the
// item lists and durations they are made of (words.ts), by their facts: what
// was done, when, and the way on. The stop paragraph: stop-error.test.mts.
import {
	answerLostItem,
	countedAsDoneItem,
	doneBeforeItem,
	lostAnswerText,
	storeFailedText,
	unknownBeforeText,
} from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';
import { duration, itemList } from '../../nodes/OutreachSequences/run/outcome/words.ts';

const contact = { noun: 'contact', id: 'c-42', verb: 'archive', done: 'archived' };
const s2 = { noun: 'sequence', name: 'S2', verb: 'create', done: 'created' };
const HOUR = 3_600_000;
const earlier = { message: 'It failed (HTTP 500).', description: 'd', statusCode: 500 };

test.each([
	[itemList([4]), 'item 4'],
	[itemList([2, 3]), 'items 2 and 3'],
	[itemList([2, 3, 5, 6, 7, 9]), 'items 2, 3, 5 to 7 and 9'],
	[itemList([0, 2, 4, 6, 8, 10, 11, 12]), 'items 0, 2, 4, 6 and 4 more'],
	[itemList([3, 6], 'S4'), 'items 3 ("S4") and 6'],
	[itemList([3, 4, 5], 'S4'), 'items 3 to 5'],
	[itemList([0], 'Spring follow-up for the Q3'), 'item 0 ("Spring follow-up for th…")'],
	[duration(0), '0 seconds'],
	[duration(1000), '1 second'],
	[duration(90_449), '90.4 seconds'],
	[duration(90 * 60_000), '90 minutes'],
	[duration(HOUR), '1 hour'],
	[duration(24 * HOUR), '24 hours'],
])('items by number, runs as ranges, the first by name; durations: %j', (text, expected) => {
	expect(text).toBe(expected);
});

const claimed = (by: string) =>
	unknownBeforeText(s2, { ...earlier, networkError: null, claimed: by, windowMs: HOUR }, 1);
const retried = unknownBeforeText(s2, { ...earlier, networkError: null }, 3);
const done = doneBeforeItem(s2, { at: 1_000, execution: '17', id: 'seq-9' }, HOUR, 46_000);
const doneInWindow = doneBeforeItem(s2, undefined, HOUR, 0);
test.each([
	['"S2" 45 seconds ago|execution 17|turn on Request Options › Repeat', done.reason],
	['within the last 1 hour|Skip Items Done Before', doneInWindow.reason],
	['Counted as done|Unconfirmed Earlier Try|may have carried it out', countedAsDoneItem(s2).reason],
	['already archived contact "c-42"|too large|find it in the', answerLostItem(contact).reason],
	['Execution 18, which is still running,|"S2"|1 hour|never confirmed', claimed('18').message],
	['An earlier run of this node|never confirmed|It was not sent', claimed('').message],
	["let it end|Count as Done (it was)|$itemIndex === 1 ? 'countAsDone'", claimed('').description],
	['It failed (HTTP 500). n8n ran the node again|Unconfirmed Earlier Try', retried.message],
	['"S2" was created|Executions › Retry|$itemIndex === 3|failure: d', retried.description],
	['SQLITE_BUSY|sends nothing|Run it again', storeFailedText('SQLITE_BUSY: database is locked')],
	['contact "c-42"|answer was lost|may have carried it out', lostAnswerText(contact)],
])('%s', (facts, text) => {
	for (const fact of facts.split('|')) expect(text).toContain(fact);
});

test.each([
	[done, 'seq-9'],
	[doneInWindow, null],
	[countedAsDoneItem(s2), null],
	[answerLostItem(contact), 'c-42'],
])('a skipped item says so, with the ID where one is known: %#', (item, id) => {
	expect(item).toMatchObject({ skipped: true, id });
});
