// The whole text of a request that got no HTTP answer, as the fault matrix's
// network faults meet it (engine: fault-matrix-network.test.mts; e2e:
// cli.e2e.mts): asserted here once. Which code is which fault: texts.test.mts.
import { networkFailure } from '../../nodes/OutreachSequences/transport/failure.ts';
import { describeFailure } from '../../nodes/OutreachSequences/run/outcome/texts.ts';

const contact = { noun: 'contact', id: 'c-43', verb: 'archive', done: 'archived' };
const MAY_HAVE_ACTED = 'It may have carried the request out: check before sending it again.';

const textOf = (fault: { code?: string; message?: string }, baseUrl = 'http://127.0.0.1:4010') =>
	describeFailure(networkFailure(fault), {
		subject: contact,
		baseUrl,
		timeoutMs: 1000,
		credentialName: 'Outreach sandbox',
	});

test('a connection reset, before the answer or in its middle: the service may have acted', () => {
	for (const fault of [{ code: 'ECONNRESET', message: 'socket hang up' }, { message: 'aborted' }])
		expect(textOf(fault).message).toBe(
			`The connection to the outreach service was reset before its answer to archive contact "c-43" was complete. ${MAY_HAVE_ACTED}`,
		);
});

test('no answer within Request Options › Timeout: the limit, and that the service may have acted', () => {
	const text = textOf({ code: 'ECONNABORTED', message: 'timeout of 1000ms exceeded' });
	expect(text.message).toBe(
		`The outreach service did not answer the request to archive contact "c-43" within 1000 ms, the limit set in Request Options › Timeout (Ms). ${MAY_HAVE_ACTED}`,
	);
	expect(text.description).toBe(
		'Base URL: http://127.0.0.1:4010. Network error: ECONNABORTED (timeout of 1000ms exceeded).',
	);
});

test('a refused connection and an unknown host: what is wrong with the Base URL; nothing reached the service', () => {
	expect(textOf({ code: 'ECONNREFUSED' }, 'http://127.0.0.1:9').message).toBe(
		"Could not connect to the outreach service at http://127.0.0.1:9: the connection was refused. Check the credential's Base URL and that the service is running.",
	);
	const unknown = textOf({ code: 'ENOTFOUND' }, 'http://outreach-sandbox.invalid');
	expect(unknown.message).toBe(
		'The host "outreach-sandbox.invalid" in the credential\'s Base URL could not be found: the DNS lookup failed.',
	);
	expect(unknown.description).toBe(
		'Base URL: http://outreach-sandbox.invalid. Network error: ENOTFOUND.',
	);
});
