// What a failed HTTP answer does to its item, in n8n's engine: the item fails
// with the facts of the answer, its Stop error carries the HTTP code and the
// same text, its details quote the service's answer as it came, and it was
// sent as often as is safe; healthy items in the same run are unaffected; the
// API key appears in no error, and n8n logs a failed item's message to its
// log, not the console. The words of each answer: test/unit/texts-http.test.mts
// and item-error.test.mts. Network faults: fault-matrix-network.test.mts.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { RETRY_OFF } from '../harness/workflows.mts';
import { ENGINE_LOG } from '../harness/n8n-log.mts';
import { useEnvironment } from '../harness/setup.mts';
import { archiverIn } from './errors-harness.mts';
import { httpFacts } from './fault-matrix-harness.mts';

const env = useEnvironment();
const archiveWithFault = archiverIn(env);
const ARCHIVE = '/v1/contacts/c-43/archive';

/** A body as the details quote it: JSON as n8n parsed it, anything else as it came. */
function asQuoted(body: string): string {
	try {
		return JSON.stringify(JSON.parse(body));
	} catch {
		return body;
	}
}

describe('HTTP answers', () => {
	test.each([
		[401, { message: 'Invalid key' }],
		[403, ''],
		[400, { message: 'name is too long' }],
		[409, { error: 'already archived' }],
		[422, { detail: 'bad state' }],
		[404, { message: 'Resource not found' }],
		[404, ''],
		[500, { message: 'boom' }],
		[502, '<html><body>Bad gateway</body></html>'],
		// Without Retry-After, a gateway may have passed the archive on: not sent again, whatever the option says.
		[503, ''],
		[504, { message: 'upstream timeout' }],
		[418, 'I am a teapot'],
	])('HTTP %i with body %j: sent once, failed with its facts and code', async (status, body) => {
		const { message, error, facts, sent } = await archiveWithFault(
			{ status, body, times: 1 },
			RETRY_OFF,
		);
		expect(facts).toEqual(httpFacts(status));
		expect(sent).toEqual([ARCHIVE]);
		expect(message).not.toBe('');
		expect(error).toMatchObject({ httpCode: String(status) });
		// The service's answer, as it came, is in the details.
		if (body !== '')
			expect(error?.description).toContain(typeof body === 'string' ? body : JSON.stringify(body));
	});

	test.each([
		['429, Rate Limit Handling off', 429, RETRY_OFF, { 'Retry-After': '30' }, 30],
		['503 with Retry-After, Rate Limit Handling off', 503, RETRY_OFF, { 'Retry-After': '30' }, 30],
		['429 without Retry-After, Rate Limit Handling off', 429, RETRY_OFF, {}, null],
		['429 asking for a longer wait than Max Wait', 429, {}, { 'Retry-After': '3600' }, 3600],
	])(
		'%s: the service did not act, it was sent once and not again, and its facts hold the wait it asked for',
		async (_, status, parameters, headers, retryAfterSeconds) => {
			const { facts, sent, error } = await archiveWithFault(
				{ status, body: { message: 'Too many requests' }, headers },
				parameters,
			);
			expect(facts).toEqual(httpFacts(status, retryAfterSeconds));
			expect(facts?.outcome).toBe('notActed');
			expect(sent).toEqual([ARCHIVE]);
			expect(error).toMatchObject({ httpCode: String(status) });
		},
	);

	test.each([
		['malformed JSON', '{"id": "c-43", "status":', 'application/json'],
		['an empty body', '', 'application/json'],
		['a JSON list', '[{"id": "c-43"}]', 'application/json'],
		['an HTML page', '<html>ok</html>', 'text/html'],
	])('a 200 with %s is an error, not an item holding text', async (_, body, type) => {
		const { facts, error, sent } = await archiveWithFault({
			status: 200,
			body,
			headers: { 'Content-Type': type },
		});
		// A 2xx may mean the service acted, whatever its body: it is not sent again.
		expect(facts).toEqual(httpFacts(200));
		expect(sent).toEqual([ARCHIVE]);
		expect(error).toMatchObject({ httpCode: '200' });
		if (body !== '') expect(error?.description).toContain(asQuoted(body));
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
			const { message, facts, sent } = await archiveWithFault({
				status: 302,
				headers: { Location: target },
			});
			expect(facts).toEqual(httpFacts(302));
			expect(sent).toEqual([ARCHIVE]);
			// Where it pointed is the user's to see, not the node's to follow.
			expect(message).toContain(target);
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
	// What the service said is quoted, all of it but the key.
	expect(message).toContain('bad key');
	expect(message).not.toContain(env.sandbox.apiKey);
	expect(error?.description).toContain('bad key');
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
