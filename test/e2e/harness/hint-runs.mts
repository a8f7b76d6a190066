// The n8n that cli-hints.e2e.mts runs (`n8n execute`), the faults its tests
// set and how it reads what the sandbox answered: contact-archive under
// Continue, with contacts the sandbox knows, so that every failure comes from
// a fault the test sets, with and without Retry On Fail; Get Use Case with
// Retry On Fail; and the shipped send-again example, with its credential.
import type { Fault, RecordedRequest, SandboxProcess } from '../../harness/sandbox.mts';
import { fixtureCopy } from './cli.mts';
import { SEND_AGAIN_FILE, sendAgainCredential } from './send-again.mts';
import type { N8nSetup } from './stage.mts';

export const HINT_CONTACTS = ['c-42', 'c-43', '42'];
export const HINTS_WORKFLOW = 'e2e-hints-archive';
export const RETRY_ON_FAIL_WORKFLOW = 'e2e-hints-retry-on-fail';
export const READ_ONLY_RETRY_ON_FAIL_WORKFLOW = 'e2e-hints-use-case-retry-on-fail';
/** Settings › Max Tries of the Retry On Fail workflow (n8n's default is 3; 2 keeps the run short). */
export const RETRY_ON_FAIL_TRIES = 2;

/** n8n `version` with the hints workflows and the send-again example imported, for `n8n execute`. */
export function hintRunsSetup(version: string, sandbox: SandboxProcess): N8nSetup {
	const inputs = HINT_CONTACTS.map((id) => ({ id }));
	const onContinue = { onError: 'continueRegularOutput' };
	return {
		version,
		name: `cli-${version}`,
		run: 'cli',
		// The credential the fixtures and the example refer to, stored as a user would create it.
		credentials: [
			{
				...sendAgainCredential(),
				type: 'outreachSequencesApi',
				data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url },
			},
		],
		workflows: [
			fixtureCopy('contact-archive', HINTS_WORKFLOW, { ...onContinue, inputs }),
			fixtureCopy('contact-archive', RETRY_ON_FAIL_WORKFLOW, {
				...onContinue,
				inputs,
				retryOnFail: true,
				maxTries: RETRY_ON_FAIL_TRIES,
			}),
			fixtureCopy('use-case-get', READ_ONLY_RETRY_ON_FAIL_WORKFLOW, {
				...onContinue,
				retryOnFail: true,
			}),
			SEND_AGAIN_FILE,
		],
	};
}

export const archivePath = (id: string) => `/v1/contacts/${encodeURIComponent(id)}/archive`;

/** The statuses the sandbox answered each hint contact's archive with, in order. */
export const statusesByContact = (requests: RecordedRequest[]) =>
	Object.fromEntries(
		HINT_CONTACTS.map((id) => [
			id,
			requests
				.filter((request) => request.url === archivePath(id))
				.map((request) => request.status),
		]),
	);

/** What the sandbox answers the archive of contact `id` with. */
export const ARCHIVE_FAULTS = {
	pushedBackOnce: (id: string): Fault => ({
		pathPrefix: archivePath(id),
		status: 429,
		headers: { 'Retry-After': '1' },
		body: { message: 'Too many requests' },
		times: 1,
	}),
	notFound: (id: string): Fault => ({
		pathPrefix: archivePath(id),
		status: 404,
		body: { message: 'Resource not found' },
	}),
	serverError: (id: string): Fault => ({
		pathPrefix: archivePath(id),
		status: 500,
		body: { message: 'Internal error' },
	}),
};

/**
 * The send-again example's faults: the create of `summer` gets a 429 once,
 * asking to wait `retryAfter` seconds; the create of `autumn` a 500.
 */
export const sendAgainFaults = (summer: string, autumn: string, retryAfter: number): Fault[] => [
	{
		pathPrefix: '/v1/sequences',
		method: 'POST',
		bodyContains: summer,
		status: 429,
		headers: { 'Retry-After': String(retryAfter) },
		body: { message: 'Too many requests' },
		times: 1,
	},
	{
		pathPrefix: '/v1/sequences',
		method: 'POST',
		bodyContains: autumn,
		status: 500,
		body: { message: 'Internal error' },
	},
];

/**
 * What the send-again example's failed items carry in `message`: Summer's
 * 429, which asked for a wait of `retryAfter` seconds (the service did not
 * act), and Autumn's 500 (it may have).
 */
export const sendAgainFacts = (retryAfter: number) => ({
	summer: {
		statusCode: 429,
		networkError: null,
		timesSent: 1,
		retryAfterSeconds: retryAfter,
		outcome: 'notActed',
	},
	autumn: {
		statusCode: 500,
		networkError: null,
		timesSent: 1,
		retryAfterSeconds: null,
		outcome: 'mayHaveActed',
	},
});

/** The creates the sandbox received, and the statuses it answered those of the sequence `name` with, in order. */
export function sequenceCreates(requests: RecordedRequest[]) {
	const creates = requests.filter(
		(request) => request.method === 'POST' && request.url === '/v1/sequences',
	);
	const sent = (name: string) =>
		creates
			.filter((request) => (JSON.parse(request.body) as { name?: unknown }).name === name)
			.map((request) => request.status);
	return { creates, sent };
}
