// One pace per service in an n8n process (run/pace/servicePace.ts): shared by every
// execution that talks to the same service, fair, isolated per key, and forgotten
// when idle. On a virtual clock, one request in flight unless said. That one
// execution's push-back holds the others back: loop-faults.test.mts.
import type { Turn } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import {
	IDLE_MS,
	ServicePace,
	serviceKey,
	servicePace,
} from '../../nodes/OutreachSequences/run/pace/servicePace.ts';

function virtualClock() {
	const clock = { now: 0 };
	return { clock, now: () => clock.now, sleep: async (ms: number) => void (clock.now += ms) };
}

test('turns go in the order they were asked for, across executions', async () => {
	const { now, sleep } = virtualClock();
	const pace = new ServicePace(1, now);
	const order: string[] = [];
	const ask = (name: string) =>
		pace
			.turn(() => false, sleep)
			.then(async (ticket) => {
				order.push(name);
				await Promise.resolve();
				pace.pacer.succeeded((ticket as Turn).epoch);
				pace.finished(ticket as Turn, 'answered');
			});
	await Promise.all(['A1', 'B1', 'A2', 'C1', 'B2', 'A3'].map(ask));
	expect(order).toEqual(['A1', 'B1', 'A2', 'C1', 'B2', 'A3']);
});

test('a stopped execution gives up its place in the queue', async () => {
	const { now, sleep } = virtualClock();
	const pace = new ServicePace(1, now);
	const first = (await pace.turn(() => false, sleep)) as Turn;
	let stopped = false;
	const waiting = pace.turn(() => stopped, sleep);
	stopped = true;
	pace.pacer.succeeded(first.epoch);
	pace.finished(first, 'answered');
	expect(await waiting).toBeUndefined();
});

test('the same service (Base URL and key) has one pace, under a hash of them; another key or another Base URL has its own', () => {
	const now = () => 0;
	const a = servicePace('http://service.test', 'key-isolation-a', 32, now);
	expect(servicePace('http://service.test', 'key-isolation-a', 32, now)).toBe(a);
	expect(servicePace('http://service.test', 'key-isolation-b', 32, now)).not.toBe(a);
	expect(servicePace('http://other.test', 'key-isolation-a', 32, now)).not.toBe(a);
	// The key is held only as part of a hash.
	expect(serviceKey('http://service.test', 'secret-key-0123')).toMatch(/^[0-9a-f]{64}$/);
});

test('a service nobody has used for a while is forgotten; one in use is kept', () => {
	const clock = { now: 1_000_000 };
	const now = () => clock.now;
	const idle = servicePace('http://idle.test', 'key-idle', 32, now);
	const busy = servicePace('http://busy.test', 'key-busy', 32, now);
	busy.join(32);
	clock.now += IDLE_MS + 1;
	servicePace('http://third.test', 'key-third', 32, now);
	expect(servicePace('http://idle.test', 'key-idle', 32, now)).not.toBe(idle);
	expect(servicePace('http://busy.test', 'key-busy', 32, now)).toBe(busy);
	busy.leave();
});
