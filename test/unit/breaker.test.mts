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
const end = (breaker: Breaker, count: number, label?: string, probe = false) => {
	for (let index = 0; index < count; index++)
		breaker.ended(label ? { failedWith: label, again: false } : 'answered', probe);
};

test(`it opens at ${BREAKER_MIN_FAILURES} failures with no useful answer, when they are most of the last ${BREAKER_WINDOW} requests`, () => {
	const { breaker } = breakerAt();
	end(breaker, 5);
	end(breaker, 5, 'timeout');
	expect(breaker.isClosed).toBe(true);
	// Older answers drop out of the window: 6 failures of the last 10 are most of them.
	end(breaker, 1, 'timeout');
	expect(breaker.gate()).toEqual({ state: 'open', waitMs: BREAKER_PAUSE_MS });
	expect(breaker.opened).toBe(1);
});

test('after the pause one request may go as the probe; the others wait for its answer; an answer closes it', () => {
	const { clock, breaker } = breakerAt();
	end(breaker, 5, 'timeout');
	clock.now += BREAKER_PAUSE_MS - 1;
	expect(breaker.gate()).toEqual({ state: 'open', waitMs: 1 });
	clock.now += 1;
	expect(breaker.gate()).toEqual({ state: 'probe' });
	breaker.probing = true;
	// A request that was already under way ends meanwhile: it is not the probe.
	end(breaker, 1, 'timeout');
	expect(breaker.gate()).toEqual({ state: 'probing' });
	end(breaker, 1, undefined, true);
	expect([breaker.gate(), breaker.tripCount]).toEqual([{ state: 'closed' }, 0]);
	// Closed with a clean slate: it takes five new failures to open again.
	end(breaker, 4, 'timeout');
	expect(breaker.isClosed).toBe(true);
});

test('a failed probe trips it: it counts the trip, says why, and opens for another pause; a dropped probe lets another go', () => {
	const { clock, breaker } = breakerAt();
	end(breaker, 3, 'timeout');
	end(breaker, 2, 'HTTP 502');
	clock.now += BREAKER_PAUSE_MS;
	breaker.probing = true;
	breaker.ended('cancelled', true);
	expect(breaker.gate()).toEqual({ state: 'probe' });
	breaker.probing = true;
	end(breaker, 1, 'timeout', true);
	expect(breaker.tripCount).toBe(1);
	expect(breaker.down).toEqual({ failed: 6, of: 6, labels: { timeout: 4, 'HTTP 502': 2 } });
	expect(breaker.gate()).toEqual({ state: 'open', waitMs: BREAKER_PAUSE_MS });
});
