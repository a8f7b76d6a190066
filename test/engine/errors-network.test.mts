// What the user reads when the network fails: a dropped or reset connection,
// a timeout, a refused connection, a host DNS does not know; healthy items in
// the same run are unaffected. HTTP answers: errors.test.mts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runFixture } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';
import { archiverIn } from './errors-harness.mts';

const env = useEnvironment();
const archiveWithFault = archiverIn(env);

describe('network faults', () => {
	test('a dropped connection', async () => {
		const { message } = await archiveWithFault({ drop: 'before-response' });
		expect(message).toBe(
			'The connection to the outreach service was reset before its answer to archive contact "c-43" was complete. It may have carried the request out: check before sending it again.',
		);
	});

	test('a reset in the middle of the answer', async () => {
		const { message } = await archiveWithFault({
			drop: 'mid-body',
			status: 200,
			body: { id: 'c-43', status: 'archived' },
		});
		expect(message).toMatch(/^The connection to the outreach service was reset before its answer/);
	});

	test('an answer slower than Request Options › Timeout names the limit', async () => {
		const { message } = await archiveWithFault(
			{ delayMs: 1500 },
			{ requestOptions: { timeout: 300 } },
		);
		expect(message).toBe(
			'The outreach service did not answer the request to archive contact "c-43" within 300 ms, the limit set in Request Options › Timeout (Ms). It may have carried the request out: check before sending it again.',
		);
	});

	test('connection refused', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
		await new Promise((resolve) => closed.close(resolve));
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'c-42' }],
			onError: 'continueRegularOutput',
			credential: { apiKey: env.sandbox.apiKey, baseUrl: url },
		});
		expect(run.all[0].json.error).toBe(
			`Could not connect to the outreach service at ${url}: the connection was refused. Check the credential's Base URL and that the service is running.`,
		);
	});

	test('a host that DNS does not know', async () => {
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'c-42' }],
			onError: 'continueRegularOutput',
			credential: { apiKey: env.sandbox.apiKey, baseUrl: 'http://outreach-sandbox.invalid' },
		});
		expect(run.all[0].json.error).toBe(
			'The host "outreach-sandbox.invalid" in the credential\'s Base URL could not be found: the DNS lookup failed.',
		);
		const stopped = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'c-42' }],
			credential: { apiKey: env.sandbox.apiKey, baseUrl: 'http://outreach-sandbox.invalid' },
		});
		expect((stopped.error as { description?: string }).description).toMatch(
			/Network error: (ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)/,
		);
	});
});
