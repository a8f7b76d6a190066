// The hint for a run the latency limit held back (run/pace/latencyLimit.ts):
// the service answered more slowly with more requests under way, so fewer went
// at once than there were items. One sentence, in the user's words.
import { executionHints, inFlightHint } from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import { clean, create } from './hints-helpers.mts';

test('the service answered more slowly with more under way: one sentence, with how many went at a time', () => {
	const summary = { ...clean, heldInFlight: 16 };
	const hint = {
		type: 'info',
		location: 'outputPane',
		message:
			'The outreach service answered more slowly with more requests under way, so the node sent about 16 requests at a time.',
	};
	expect(inFlightHint(summary)).toEqual(hint);
	expect(executionHints(summary, create)).toEqual([hint]);
	expect(inFlightHint({ ...clean, heldInFlight: 1 })?.message).toContain(
		'about 1 request at a time',
	);
});

test('a run the limit did not hold back (a far service, or fewer items than the limit) gets no such hint', () => {
	expect(inFlightHint(clean)).toBeUndefined();
	expect(inFlightHint({ ...clean, heldInFlight: undefined })).toBeUndefined();
});
