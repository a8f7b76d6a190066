// One pace per service in an n8n process (run/pace/servicePace.ts): shared by every
// execution that talks to the same service, fair, isolated per key, and forgotten
// when idle. On a virtual clock, one request in flight unless said. That one
// execution's push-back holds the others back: loop.test.mts.
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

test('time with nothing in flight and no turn asked for counts for at most a second: a burst after 5 s of quiet is judged on its own', async () => {
	const { clock, now, sleep } = virtualClock();
	const pace = new ServicePace(32, now);
	const ask = async () => (await pace.turn(() => false, sleep)) as Turn;
	// One request, answered; then 5 s in which no execution asks for a turn (they wait for n8n's database).
	const first = await ask();
	pace.pacer.succeeded(first.epoch);
	pace.finished(first, 'answered');
	clock.now += 5000;
	// Then 8 requests, 50 ms apart, each asked for while the one before is out; the service accepts
	// 5 of them (6 in the epoch) and pushes back on the last.
	let next = ask();
	for (let index = 0; index < 8; index++) {
		const ticket = await next;
		clock.now += 50;
		if (index < 7) next = ask();
		if (index < 5) pace.pacer.succeeded(ticket.epoch);
		if (index === 7) pace.pacer.pushedBack(ticket.epoch, 1000);
		pace.finished(ticket, 'answered');
	}
	clock.now += 1000;
	expect(pace.pacer.readyIn(0)).toBe(0);
	// The 5 s without a turn asked for count as 1 s: 9 sent in 1.35 s, halved, is below twice 6 accepted
	// in 2.4 s with the pause. With the whole 5 s counted, 9 in 5.35 s halved: under 1 a second.
	expect(pace.pacer.sendRate).toBeCloseTo((9 / 1.35) * 0.5, 1);
});
