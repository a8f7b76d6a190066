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
