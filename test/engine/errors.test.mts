// What the user reads when the service fails, for each HTTP answer; healthy
// items in the same run are unaffected; the API key appears in no error, and
// n8n logs a failed item's message to its log, not the console. Network
// faults: fault-matrix-network.test.mts.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { NOT_SENT_AGAIN, RETRY_OFF } from '../harness/workflows.mts';
import { ENGINE_LOG } from '../harness/n8n-log.mts';
import { useEnvironment } from '../harness/setup.mts';
import { archiverIn } from './errors-harness.mts';

const env = useEnvironment();
const archiveWithFault = archiverIn(env);

describe('HTTP answers', () => {
	test.each([
		[
			401,
			{ message: 'Invalid key' },
			/^The outreach service rejected the API key \(HTTP 401\): Invalid key\. Check the API Key in the credential "Outreach sandbox": keys are made in the service's portal under General › Integrations › API Keys\.$/,
		],
		[403, '', /^The outreach service rejected the API key \(HTTP 403\)\. Check the API Key/],
		[
			400,
			{ message: 'name is too long' },
			/^The outreach service refused to archive contact "c-43" \(HTTP 400\): name is too long$/,
		],
		[
			409,
			{ error: 'already archived' },
			/^The outreach service refused to archive contact "c-43" \(HTTP 409\): already archived$/,
		],
		[
			422,
			{ detail: 'bad state' },
			/^The outreach service refused to archive contact "c-43" \(HTTP 422\): bad state$/,
		],
		[
			404,
			{ message: 'Resource not found' },
			/^Contact "c-43" was not found \(HTTP 404\): Resource not found$/,
		],
		[404, '', /^Contact "c-43" was not found \(HTTP 404\)$/],
		[
			500,
			{ message: 'boom' },
			/^The outreach service failed \(HTTP 500\) to archive contact "c-43": boom\. It may have carried the request out: check before sending it again\.$/,
		],
		[
			502,
			'<html><body>Bad gateway</body></html>',
			/^The outreach service failed \(HTTP 502\) to archive contact "c-43", and its answer is not JSON\./,
		],
		// Without Retry-After, a gateway may have passed the archive on: not sent again, whatever the option says.
		[
			503,
			'',
			/^The outreach service failed \(HTTP 503\) to archive contact "c-43"\. It may have carried the request out: check before sending it again\.$/,
		],
		[
			504,
			{ message: 'upstream timeout' },
			/^The outreach service failed \(HTTP 504\) to archive contact "c-43": upstream timeout\./,
		],
		[
			418,
			'I am a teapot',
			/^The outreach service failed \(HTTP 418\) to archive contact "c-43", and its answer is not JSON\. Check that the credential's Base URL is the address of the service's API\.$/,
		],
	])('HTTP %i with body %j', async (status, body, expected) => {
		const { message, error } = await archiveWithFault({ status, body, times: 1 }, RETRY_OFF);
		expect(message).toMatch(expected);
		expect(error).toMatchObject({ httpCode: String(status) });
	});

	test('429 with Rate Limit Handling off names the rate limit, the Retry-After value and the option', async () => {
		const { message } = await archiveWithFault(
			{ status: 429, body: { message: 'Too many requests' }, headers: { 'Retry-After': '30' } },
			RETRY_OFF,
		);
		expect(message).toBe(
			`The outreach service is rate-limiting requests (HTTP 429): Too many requests. It asked to wait 30 seconds (Retry-After: 30). ${NOT_SENT_AGAIN}`,
		);
	});

	test('503 with Retry-After, with Rate Limit Handling off: the service asked to wait, so it did not act', async () => {
		const { message } = await archiveWithFault(
			{ status: 503, body: '', headers: { 'Retry-After': '30' } },
			RETRY_OFF,
		);
		expect(message).toBe(
			`The outreach service failed (HTTP 503) to archive contact "c-43". Try again later. ${NOT_SENT_AGAIN}`,
		);
	});

	test('429 without Retry-After, with Rate Limit Handling off', async () => {
		const { message } = await archiveWithFault({ status: 429, body: '' }, RETRY_OFF);
		expect(message).toBe(
			`The outreach service is rate-limiting requests (HTTP 429). ${NOT_SENT_AGAIN}`,
		);
	});

	test('429 asking for a longer wait than Max Wait fails at once, and says so', async () => {
		const { message } = await archiveWithFault({
			status: 429,
			body: '',
			headers: { 'Retry-After': '3600' },
		});
		expect(message).toBe(
			'The outreach service is rate-limiting requests (HTTP 429). It asked to wait 3600 seconds (Retry-After: 3600). The item was sent once; the wait it asked for is longer than the 60 seconds that Request Options › Rate Limit Handling › Max Wait (Seconds) allows, so it was not sent again.',
		);
	});

	test.each([
		['malformed JSON', '{"id": "c-43", "status":', 'application/json'],
		['an empty body', '', 'application/json'],
		['a JSON list', '[{"id": "c-43"}]', 'application/json'],
		['an HTML page', '<html>ok</html>', 'text/html'],
	])('a 200 with %s is an error, not an item holding text', async (_, body, type) => {
		const { message, error } = await archiveWithFault({
			status: 200,
			body,
			headers: { 'Content-Type': type },
		});
		expect(message).toBe(
			`The outreach service answered HTTP 200 to archive contact "c-43", but not with a JSON object, so there is no result to output. Check that the credential's Base URL is the address of the service's API. It may have carried the request out: check before sending it again.`,
		);
		expect(error?.description).toContain('The service answered HTTP 200');
	});

	test('a redirect is not followed, so the key never leaves the Base URL', async () => {
		const elsewhere = http.createServer((req, res) => {
			received.push(req.headers);
			res.end('{}');
		});
		const received: http.IncomingHttpHeaders[] = [];
		await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.2', resolve));
		const target = `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}/steal`;
		try {
			const { message } = await archiveWithFault({ status: 302, headers: { Location: target } });
			expect(message).toBe(
				`The outreach service redirected the request to archive contact "c-43" (HTTP 302 to ${target}). Redirects are not followed, so the API key only goes to the credential's Base URL: set the Base URL to the service's current address. It may have carried the request out: check before sending it again.`,
			);
			expect(received).toHaveLength(0);
		} finally {
			elsewhere.close();
		}
	});
});

test('the API key never appears in an error, even when the service echoes it', async () => {
	const { message, error } = await archiveWithFault({
		status: 400,
		body: { message: `bad key ${env.sandbox.apiKey}` },
	});
	expect(message).toBe(
		'The outreach service refused to archive contact "c-43" (HTTP 400): bad key [API key]',
	);
	expect(JSON.stringify(error)).not.toContain(env.sandbox.apiKey);
});

test("n8n logs a failed item's message to artifacts/engine/n8n.log, not to the console", async () => {
	const printed: string[] = [];
	const consoleLog = console.log;
	console.log = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
	try {
		const { message } = await archiveWithFault({
			status: 409,
			body: { error: `already archived, said at ${Date.now()}` },
		});
		// As JSON in the file; n8n's logger writes it there in the background.
		const logged = JSON.stringify(message).slice(1, -1);
		const deadline = Date.now() + 10_000;
		while (!readFileSync(ENGINE_LOG, 'utf8').includes(logged) && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 100));
		expect(readFileSync(ENGINE_LOG, 'utf8')).toContain(logged);
		expect(printed.join('\n')).not.toContain(message);
	} finally {
		console.log = consoleLog;
	}
});
