// A run whose items are all answered without a send (done before: a key, an
// earlier try) awaits nothing of its own: it must still give n8n's event loop
// a turn now and then, or 10,000 skipped items hold n8n's process for seconds.
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import { SETTINGS } from './loop-helpers.mts';

test('1,000 items answered without a send let other work of the process run between groups', async () => {
	let turnsOfOthers = 0;
	let running = true;
	const other = () => {
		if (!running) return;
		turnsOfOthers++;
		setImmediate(other);
	};
	setImmediate(other);
	const loop = new RunLoop(1000, SETTINGS, {
		pace: new ServicePace(SETTINGS.batching.groupSize, () => 0),
		prepare: (index) => ({
			method: 'POST',
			path: `/v1/items/${index}`,
			subject: { noun: 'item', id: String(index), verb: 'archive', done: 'archived' },
		}),
		prior: () => ({ kind: 'answer', json: { skipped: true }, event: 'doneBefore' }),
		send: async () => {
			throw new Error('nothing is sent');
		},
		cancelled: () => false,
		log: () => undefined,
		now: () => 0,
		// n8n's sleep: a timer, so the event loop turns.
		sleep: async (ms) => await new Promise((resolve) => setTimeout(resolve, ms)),
		random: () => 0.5,
	});
	await loop.run();
	running = false;
	expect(loop.items.every((item) => item.state === 'done')).toBe(true);
	// Every 32 items, the process's other work gets at least one turn.
	expect(turnsOfOthers).toBeGreaterThanOrEqual(Math.floor(1000 / 32) - 1);
});
