// The credential test's verdict for each thing its one request can meet. The
// engine tests (test/engine/credential.test.mts) meet them over real sockets;
// here are those a test can't make quickly: a 30-second timeout, a reset.
import {
	credentialTestVerdict,
	CREDENTIAL_TEST_TIMEOUT_MS,
	KEY_ACCEPTED,
	NOT_THE_API,
} from '../../nodes/OutreachSequences/run/n8n/credentialTest.ts';
import type { Probe } from '../../nodes/OutreachSequences/run/n8n/credentialTest.ts';
import { describeFailure } from '../../nodes/OutreachSequences/run/outcome/texts.ts';
import { networkFailure } from '../../nodes/OutreachSequences/run/http/failure.ts';

const BASE = 'https://api.example.com';
const answer = (status: number, body = '', location?: string): Probe => ({
	kind: 'answer',
	status,
	body,
	location,
});

test.each<[string, Probe, string]>([
	[
		'timeout',
		{ kind: 'network', fault: 'timeout' },
		`The outreach service did not answer the request to test the credential within ${CREDENTIAL_TEST_TIMEOUT_MS / 1000} seconds.`,
	],
	[
		'reset',
		{ kind: 'network', fault: 'reset', detail: 'ECONNRESET' },
		'The connection to the outreach service was reset before its answer to test the credential was complete. Try the test again.',
	],
	[
		'other, with what failed',
		{ kind: 'network', fault: 'other', detail: 'bad port' },
		`The request to test the credential failed on the network before the outreach service at ${BASE} answered. Network error: bad port.`,
	],
	[
		'other, with nothing to add',
		{ kind: 'network', fault: 'other' },
		`The request to test the credential failed on the network before the outreach service at ${BASE} answered.`,
	],
])('no answer, %s: a sentence', (_, probe, message) => {
	expect(credentialTestVerdict(probe, BASE)).toEqual({ status: 'Error', message });
});

test("each network sentence is the run's own, word for word, where the run has it", () => {
	const run = (code: string) =>
		describeFailure(networkFailure({ code }), {
			subject: { noun: 'contact', id: 'c-1', verb: 'archive', done: 'archived' },
			baseUrl: BASE,
			timeoutMs: 1,
			credentialName: 'C',
		}).message;
	expect(credentialTestVerdict({ kind: 'network', fault: 'refused' }, BASE).message).toBe(
		run('ECONNREFUSED'),
	);
	expect(credentialTestVerdict({ kind: 'network', fault: 'dns' }, BASE).message).toBe(
		run('ENOTFOUND'),
	);
	expect(credentialTestVerdict({ kind: 'network', fault: 'tls' }, BASE).message).toMatch(
		/^The TLS certificate of https:\/\/api\.example\.com was not accepted\. /,
	);
	expect(run('DEPTH_ZERO_SELF_SIGNED_CERT')).toMatch(
		/^The TLS certificate of https:\/\/api\.example\.com was not accepted\. /,
	);
});

test.each<[string, Probe, { status: 'OK' | 'Error'; message: string }]>([
	[
		'404 with JSON: the key was accepted',
		answer(404, '{"message":"Resource not found"}'),
		{ status: 'OK', message: KEY_ACCEPTED },
	],
	[
		'200 with JSON: a use case of that name exists, and the key was accepted',
		answer(200, '{"id":"n8n-credential-test"}'),
		{ status: 'OK', message: KEY_ACCEPTED },
	],
	['404 with an empty body', answer(404, ''), { status: 'Error', message: NOT_THE_API }],
	['404 with a web page', answer(404, '<html></html>'), { status: 'Error', message: NOT_THE_API }],
	['200 with a JSON string', answer(200, '"ok"'), { status: 'Error', message: NOT_THE_API }],
	[
		'a redirect without Location',
		answer(301),
		{
			status: 'Error',
			message:
				'The Base URL answered with a redirect (HTTP 301). Redirects are not followed, so the API key only goes to the Base URL: set it to the address the service answers at.',
		},
	],
	[
		'429, with no words of the service',
		answer(429, ''),
		{
			status: 'Error',
			message:
				'The Base URL answered HTTP 429, so the API key could not be checked. Try the test again later; if it keeps failing, check the Base URL.',
		},
	],
])('%s', (_, probe, verdict) => {
	expect(credentialTestVerdict(probe, BASE)).toEqual(verdict);
});
