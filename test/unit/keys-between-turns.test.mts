// Skip Items Done Before works out each item's key, an expression n8n
// evaluates, before the run's claim (run/memory/memoryKeys.ts): n8n's event
// loop gets a turn every KEYS_BETWEEN_TURNS keys, not once after 50,000.
import { KEYS_BETWEEN_TURNS, keysOf } from '../../nodes/OutreachSequences/run/memory/memoryKeys.ts';

test('100 keys in order, with a turn for the event loop at most every KEYS_BETWEEN_TURNS keys', async () => {
	const events: string[] = [];
	const keys = await keysOf(
		100,
		(index) => {
			events.push('key');
			return index % 10 === 9 ? undefined : `k${index}`;
		},
		async () => {
			events.push('turn');
		},
	);
	expect(keys).toEqual(Array.from({ length: 100 }, (_, i) => (i % 10 === 9 ? undefined : `k${i}`)));
	const runs = events
		.join(' ')
		.split('turn')
		.map((run) => run.trim().split(' ').filter(Boolean).length);
	expect(runs.length).toBe(Math.ceil(100 / KEYS_BETWEEN_TURNS));
	expect(Math.max(...runs)).toBeLessThanOrEqual(KEYS_BETWEEN_TURNS);
	expect(runs.reduce((sum, run) => sum + run, 0)).toBe(100);
});

test('the default turn is a timer: a timer due now fires before the 65th key', async () => {
	let fired = -1;
	let worked = 0;
	setTimeout(() => (fired = worked), 0);
	await keysOf(100, () => {
		worked++;
		return 'k';
	});
	expect(fired).toBeGreaterThanOrEqual(0);
	expect(fired).toBeLessThanOrEqual(2 * KEYS_BETWEEN_TURNS);
});
