// The fault matrix's network faults: a dropped or reset connection, a
// timeout, a refused connection and a DNS failure, under each of the three On
// Error modes, with the checks of fault-matrix-harness.mts. Three contacts;
// only the middle one (c-43) meets the fault, or all do when the fault is the
// Base URL's or the timeout. Failing answers of the service: fault-matrix.test.mts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { RELEASE } from '../harness/sandbox.mts';
import { useEnvironment } from '../harness/setup.mts';
import {
	FAULTY,
	MODES,
	networkFacts,
	runCase,
	SUBJECT,
	type Case,
} from './fault-matrix-harness.mts';

const env = useEnvironment();

// ── network faults ──────────────────────────────────────────────────────────
const reset = `The connection to the outreach service was reset before its answer to ${SUBJECT} was complete. It may have carried the request out: check before sending it again.`;
let refusedUrl = '';
const networkCases: Case[] = [
	{
		name: 'a connection dropped before the answer',
		fault: { drop: 'before-response' },
		failing: [FAULTY],
		message: reset,
		facts: networkFacts('reset', 'mayHaveActed'),
	},
	{
		name: 'a reset in the middle of the answer',
		fault: { drop: 'mid-body', status: 200, body: { id: 'c-43', status: 'archived' } },
		failing: [FAULTY],
		message: reset,
		facts: networkFacts('reset', 'mayHaveActed'),
	},
	{
		name: 'an answer slower than Request Options › Timeout',
		// Every archive is held, so that no healthy answer has to come within the limit, however slow the machine.
		fault: { pathPrefix: '/v1/contacts/', holdUntil: RELEASE },
		parameters: { requestOptions: { timeout: 300 } },
		failing: [0, 1, 2],
		message:
			/^The outreach service did not answer the request to archive contact "[^"]+" within 300 ms, the limit set in Request Options › Timeout \(Ms\)\. It may have carried the request out: check before sending it again\.$/,
		facts: networkFacts('timeout', 'mayHaveActed'),
		details: /Network error: /,
	},
	{
		name: 'connection refused',
		credential: () => ({ apiKey: env.sandbox.apiKey, baseUrl: refusedUrl }),
		failing: [0, 1, 2],
		message: () =>
			`Could not connect to the outreach service at ${refusedUrl}: the connection was refused. Check the credential's Base URL and that the service is running.`,
		details: /Network error: ECONNREFUSED/,
		facts: networkFacts('refused', 'notActed'),
	},
	{
		name: 'a DNS failure',
		credential: () => ({ apiKey: env.sandbox.apiKey, baseUrl: 'http://outreach-sandbox.invalid' }),
		failing: [0, 1, 2],
		message:
			'The host "outreach-sandbox.invalid" in the credential\'s Base URL could not be found: the DNS lookup failed.',
		details: /Network error: (ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)/,
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
