// When an item's request is made (run/loop/dispatcher.ts, makeAhead): a new
// item's request is made together with those of the next new items, up to the
// in-flight bound, in the order they are sent; never past the batch, nor past
// an item that stops the run. What is sent does not change.
import type { OutreachRequest } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import type { LoopSettings } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';

const SETTINGS: LoopSettings = {
	batching: { groupSize: 32, pauseMs: 0, batched: false, fixed: false },
	policy: { enabled: true, maxRetries: 3, maxWaitMs: 60_000 },
	readOnly: false,
	stopAtFirstFailure: false,
};

/** Runs `count` items against a service that answers 200, or 404 for the paths in `missing`; logs each "made i" and "sent i". */
async function run(
	count: number,
	options: { settings?: Partial<LoopSettings>; invalid?: number[]; missing?: number[] } = {},
) {
	const clock = { now: 0 };
	const events: string[] = [];
	const settings = { ...SETTINGS, ...options.settings };
	const loop = new RunLoop(count, settings, {
		pace: new ServicePace(settings.batching.groupSize, () => clock.now),
		prepare(index): OutreachRequest {
			events.push(`made ${index}`);
			if (options.invalid?.includes(index)) throw new Error(`item ${index} is invalid`);
			const subject = { noun: 'item', id: String(index), verb: 'archive', done: 'archived' };
			return { method: 'POST', path: `/v1/items/${index}`, subject };
		},
		async send(request) {
			const index = Number(request.path.split('/').pop());
			events.push(`sent ${index}`);
			await Promise.resolve();
			if (options.missing?.includes(index))
				return {
					ok: false,
					failure: {
						kind: 'http',
						status: 404,
						method: 'POST',
						retryAfter: false,
						answer: { statusCode: 404, headers: {}, body: {} },
					},
				};
			return { ok: true, json: { index } };
		},
		cancelled: () => false,
		log: () => undefined,
		now: () => clock.now,
		sleep: async (ms) => {
			events.push(`pause ${ms}`);
			clock.now += ms;
		},
		random: () => 0.5,
	});
	await loop.run();
	const made = events.filter((event) => event.startsWith('made')).map((event) => event.slice(5));
	const sent = events.filter((event) => event.startsWith('sent')).map((event) => event.slice(5));
	return { loop, events, made: made.map(Number), sent: sent.map(Number) };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

test('the first 32 requests are made together, before the first is sent; each item is made once, in order, and sent once', async () => {
	const { events, made, sent, loop } = await run(40);
	expect(events.slice(0, 33)).toEqual([...range(0, 32).map((index) => `made ${index}`), 'sent 0']);
	expect(made).toEqual(range(0, 40));
	expect([...sent].sort((a, b) => a - b)).toEqual(range(0, 40));
	for (const index of range(0, 40))
		expect(events.indexOf(`made ${index}`)).toBeLessThan(events.indexOf(`sent ${index}`));
	expect(loop.items.every((item) => item.state === 'done')).toBe(true);
});

test('with Batching, no request of the next batch is made before its pause', async () => {
	const { events } = await run(6, {
		settings: { batching: { groupSize: 3, pauseMs: 1000, batched: true, fixed: false } },
	});
	expect(events.slice(0, 3)).toEqual(['made 0', 'made 1', 'made 2']);
	const pause = events.indexOf('pause 1000');
	expect(events.indexOf('made 3')).toBeGreaterThan(pause);
	expect(events.slice(0, pause).filter((event) => event.startsWith('sent'))).toHaveLength(3);
});

test('On Error = Stop: an item whose request cannot be made stops the making; the items before it are sent, none after it', async () => {
	const { made, sent, loop } = await run(10, {
		settings: { stopAtFirstFailure: true },
		invalid: [3],
	});
	expect(made).toEqual([0, 1, 2, 3]);
	expect([...sent].sort()).toEqual([0, 1, 2]);
	expect(loop.firstFailure).toBe(3);
});

test('On Error = Stop: after a refused item, the requests made ahead of it are not sent', async () => {
	const { sent, loop } = await run(40, { settings: { stopAtFirstFailure: true }, missing: [0] });
	expect(loop.firstFailure).toBe(0);
	expect(sent).toEqual([0]);
	expect(loop.items[1].state).toBe('prepared');
});
