// The fault matrix's network faults: a dropped or reset connection, a
// timeout, a refused connection and a DNS failure, under each of the three On
// Error modes, with the checks of fault-matrix-harness.mts. Three contacts;
// only the middle one (c-43) meets the fault, or all do when the fault is the
// Base URL's or the timeout. Their texts: test/unit/texts-network.test.mts.
// Failing answers of the service: fault-matrix.test.mts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { RELEASE } from '../harness/sandbox.mts';
import { useEnvironment } from '../harness/setup.mts';
import { FAULTY, MODES, networkFacts, runCase, type Case } from './fault-matrix-harness.mts';

const env = useEnvironment();

// ── network faults ──────────────────────────────────────────────────────────
let refusedUrl = '';
const networkCases: Case[] = [
	{
		name: 'a connection dropped before the answer',
		fault: { drop: 'before-response' },
		failing: [FAULTY],
		facts: networkFacts('reset', 'mayHaveActed'),
	},
	{
		name: 'a reset in the middle of the answer',
		fault: { drop: 'mid-body', status: 200, body: { id: 'c-43', status: 'archived' } },
		failing: [FAULTY],
		facts: networkFacts('reset', 'mayHaveActed'),
	},
	{
		name: 'an answer slower than Request Options › Timeout',
		// Every archive is held, so that no healthy answer has to come within the limit, however slow the machine.
		fault: { pathPrefix: '/v1/contacts/', holdUntil: RELEASE },
		parameters: { requestOptions: { timeout: 300 } },
		failing: [0, 1, 2],
		facts: networkFacts('timeout', 'mayHaveActed'),
		// The network's code for it.
		details: /\bE[A-Z]{4,}\b/,
	},
	{
		name: 'connection refused',
		credential: () => ({ apiKey: env.sandbox.apiKey, baseUrl: refusedUrl }),
		failing: [0, 1, 2],
		details: 'ECONNREFUSED',
		facts: networkFacts('refused', 'notActed'),
	},
	{
		name: 'a DNS failure',
		credential: () => ({ apiKey: env.sandbox.apiKey, baseUrl: 'http://outreach-sandbox.invalid' }),
		failing: [0, 1, 2],
		details: /\b(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)\b/,
		facts: networkFacts('dns', 'notActed'),
	},
];

beforeAll(async () => {
	// A port that was just free and is now closed: nothing listens there.
	const closed = http.createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
	await new Promise((resolve) => closed.close(resolve));
});

describe.each(networkCases)('$name', (testCase) => {
	test.each(MODES)('On Error = %s', async (mode) => {
		await runCase(env, testCase, mode);
	});
});
