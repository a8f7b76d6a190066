// The breaker (run/pace/breaker.ts) on its own: when it opens, how it probes, what
// closes it and what trips it. Time is a number the test moves.
import {
	BREAKER_MIN_FAILURES,
	BREAKER_PAUSE_MS,
	BREAKER_WINDOW,
	Breaker,
} from '../../nodes/OutreachSequences/run/pace/breaker.ts';

function breakerAt() {
	const clock = { now: 0 };
	return { clock, breaker: new Breaker(() => clock.now) };
}

const fail = (breaker: Breaker, count: number, label = 'timeout') => {
	for (let index = 0; index < count; index++) breaker.ended(label, false);
};
const answer = (breaker: Breaker, count: number) => {
	for (let index = 0; index < count; index++) breaker.ended(undefined, false);
};

test(`it opens at ${BREAKER_MIN_FAILURES} failures with no useful answer, when they are most of the last ${BREAKER_WINDOW} requests`, () => {
	const { breaker } = breakerAt();
	fail(breaker, BREAKER_MIN_FAILURES - 1);
	expect(breaker.gate()).toEqual({ state: 'closed' });
	fail(breaker, 1);
	expect(breaker.gate()).toEqual({ state: 'open', waitMs: BREAKER_PAUSE_MS });
	expect(breaker.opened).toBe(1);
});

test('failures that are not most of the recent requests leave it closed', () => {
	const { breaker } = breakerAt();
	answer(breaker, 5);
	fail(breaker, 5);
	expect(breaker.isClosed).toBe(true);
	// Older answers drop out of the window: 6 failures of the last 10 are most of them.
	fail(breaker, 1);
	expect(breaker.isClosed).toBe(false);
});

test('after the pause one request may go as the probe; the others wait for its answer; an answer closes it', () => {
	const { clock, breaker } = breakerAt();
	fail(breaker, 5);
	clock.now += BREAKER_PAUSE_MS - 1;
	expect(breaker.gate()).toEqual({ state: 'open', waitMs: 1 });
	clock.now += 1;
	expect(breaker.gate()).toEqual({ state: 'probe' });
	breaker.probeStarted();
	expect(breaker.gate()).toEqual({ state: 'probing' });
	// A request that was already under way ends meanwhile: it is not the probe.
	breaker.ended('timeout', false);
	expect(breaker.gate()).toEqual({ state: 'probing' });
	breaker.ended(undefined, true);
	expect(breaker.gate()).toEqual({ state: 'closed' });
	expect(breaker.tripCount).toBe(0);
	// Closed with a clean slate: it takes five new failures to open again.
	fail(breaker, 4);
	expect(breaker.isClosed).toBe(true);
});

test('a failed probe trips it: it counts the trip, says why, and opens for another pause', () => {
	const { clock, breaker } = breakerAt();
	fail(breaker, 3, 'timeout');
	fail(breaker, 2, 'HTTP 502');
	clock.now += BREAKER_PAUSE_MS;
	breaker.probeStarted();
	breaker.ended('timeout', true);
	expect(breaker.tripCount).toBe(1);
	expect(breaker.down).toEqual({ failed: 6, of: 6, labels: { timeout: 4, 'HTTP 502': 2 } });
	expect(breaker.gate()).toEqual({ state: 'open', waitMs: BREAKER_PAUSE_MS });
});

test('a probe whose execution stopped before it was sent lets another request probe', () => {
	const { clock, breaker } = breakerAt();
	fail(breaker, 5);
	clock.now += BREAKER_PAUSE_MS;
	breaker.probeStarted();
	breaker.probeDropped();
	expect(breaker.gate()).toEqual({ state: 'probe' });
});
