// The sandbox's scripted faults: which request meets one.
import type http from 'node:http';

import { Faults } from '../../sandbox/faults.mts';

const request = (url: string, method = 'POST') => ({ url, method }) as http.IncomingMessage;

test('every: k meets the k-th, 2k-th, … matching request only; the others, and other paths, are answered as usual', () => {
	const faults = new Faults();
	faults.add({ pathPrefix: '/v1/sequences', every: 3, status: 502 });
	const met = Array.from({ length: 7 }, () => faults.take(request('/v1/sequences'), '{}')?.status);
	expect(met).toEqual([undefined, undefined, 502, undefined, undefined, 502, undefined]);
	expect(faults.take(request('/v1/contacts/c-1/archive'), '')).toBeUndefined();
});

test('every with times: the fault is used up after that many faulty answers', () => {
	const faults = new Faults();
	faults.add({ every: 2, times: 1, status: 500 });
	const met = Array.from({ length: 4 }, () => faults.take(request('/v1/sequences'), '{}')?.status);
	expect(met).toEqual([undefined, 500, undefined, undefined]);
});

test('holdUntil: a held request goes on when another request to that target arrives, and later ones are not held', async () => {
	const faults = new Faults();
	faults.add({ pathPrefix: '/v1/contacts/c-1/', holdUntil: '/__sandbox/release' });
	const events: string[] = [];
	const first = faults.take(request('/v1/contacts/c-1/archive'), '')!;
	faults.arrived('/v1/contacts/c-1/archive');
	const held = faults.hold(first).then(() => events.push('first answered'));
	const counted = faults.whenHeld(1).then((count) => events.push(`${count} held`));
	await new Promise((resolve) => setImmediate(resolve));
	faults.arrived('/v1/contacts/c-2/archive');
	await new Promise((resolve) => setImmediate(resolve));
	expect(events).toEqual(['1 held']);
	faults.arrived('/__sandbox/release');
	await Promise.all([held, counted]);
	expect(events).toEqual(['1 held', 'first answered']);
	// The fault holds no more: the next matching request goes on at once.
	await faults.hold(faults.take(request('/v1/contacts/c-1/archive'), '')!);
});

test('holdUntil: clearing the faults (a reset) lets every held request go', async () => {
	const faults = new Faults();
	faults.add({ holdUntil: '/never' });
	const held = faults.hold(faults.take(request('/v1/sequences'), '{}')!);
	faults.clear();
	await held;
});
