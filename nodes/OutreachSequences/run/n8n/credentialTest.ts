/**
 * The credential test, in words: n8n's credentials tester runs it as the
 * node's credentialTest method (the credential names it with testedBy). It
 * asks for a use case that does not exist: 404 means the key was accepted.
 *
 * It sends with fetch, not n8n's helper: a credential test gets only
 * `helpers.request`, which n8n's Cloud lint refuses as deprecated. So n8n's
 * proxy and SSRF settings do not apply to this one request (README ›
 * Credential); the node's own requests go through n8n's helper as before.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { API_KEY_HEADER } from '../../describe/names';
import { normalizeBaseUrl } from '../../describe/validation';
import type { NetworkFaultKind } from '../http/failure';
import { networkFailure } from '../http/failure';
import { redact } from './itemError';
import { duration, noAnswer, serviceMessage } from '../outcome/texts';

/** The contract has no ping endpoint; this use case does not exist. */
export const CREDENTIAL_TEST_PATH = '/v1/use_cases/n8n-credential-test';

/** The editor waits for the test; a service that answers at all does so well within this. */
export const CREDENTIAL_TEST_TIMEOUT_MS = 30_000;

/** What the one request of the test got: an answer, or a network fault. */
export type Probe =
	| { kind: 'answer'; status: number; location?: string; body: string }
	| { kind: 'network'; fault: NetworkFaultKind; detail?: string };

const ATTEMPT = 'to test the credential';

const fail = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

const KEY_REJECTED = (status: number) =>
	`The service rejected the API key (HTTP ${status}). Copy a key from the service's portal: General › Integrations › API Keys.`;

export const NOT_THE_API =
	"The Base URL answered, but not with JSON: it does not look like the outreach service's API. Check the Base URL.";

export const KEY_ACCEPTED = 'The outreach service accepted the API key.';

/** A body that parses as JSON, and not as a bare string: an HTML page or an empty body does not. */
function isJson(body: string): boolean {
	try {
		return typeof JSON.parse(body) !== 'string';
	} catch {
		return false;
	}
}

function parsed(body: string): unknown {
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return undefined;
	}
}

/** The sentence for a request that got no answer: the run's own words (texts.ts). */
function noAnswerText(probe: Probe & { kind: 'network' }, baseUrl: string): string {
	const texts: Record<NetworkFaultKind, () => string> = {
		refused: () => noAnswer.refused(baseUrl),
		dns: () => noAnswer.dns(baseUrl),
		tls: () =>
			`${noAnswer.tls(baseUrl)} This test always checks it; if you trust this server, the node's Request Options › Ignore SSL Issues (Insecure) can skip the check.`,
		timeout: () => noAnswer.timeout(ATTEMPT, duration(CREDENTIAL_TEST_TIMEOUT_MS)),
		reset: () => `${noAnswer.reset(ATTEMPT)} Try the test again.`,
		cancelled: () => `${noAnswer.other(ATTEMPT, baseUrl)} It was cancelled.`,
		other: () =>
			`${noAnswer.other(ATTEMPT, baseUrl)}${probe.detail ? ` Network error: ${probe.detail}.` : ''}`,
	};
	return texts[probe.fault]();
}

/** The test's result for what its request got. A pure function of the probe. */
export function credentialTestVerdict(probe: Probe, baseUrl: string): INodeCredentialTestResult {
	if (probe.kind === 'network') return fail(noAnswerText(probe, baseUrl));
	const { status } = probe;
	if (status === 401 || status === 403) return fail(KEY_REJECTED(status));
	if (status >= 300 && status < 400) {
		return fail(
			`The Base URL answered with a redirect (HTTP ${status}${probe.location ? ` to ${probe.location}` : ''}). Redirects are not followed, so the API key only goes to the Base URL: set it to the address the service answers at.`,
		);
	}
	if (status === 404 || (status >= 200 && status < 300)) {
		return isJson(probe.body) ? { status: 'OK', message: KEY_ACCEPTED } : fail(NOT_THE_API);
	}
	const quoted = serviceMessage(parsed(probe.body));
	return fail(
		`The Base URL answered HTTP ${status}${quoted ? `: ${quoted}` : ''}, so the API key could not be checked. Try the test again later; if it keeps failing, check the Base URL.`,
	);
}

/** One GET, no redirects followed, with the key in its header only. */
async function probe(url: string, apiKey: string): Promise<Probe> {
	try {
		const response = await fetch(url, {
			method: 'GET',
			headers: { [API_KEY_HEADER]: apiKey, Accept: 'application/json' },
			redirect: 'manual',
			signal: AbortSignal.timeout(CREDENTIAL_TEST_TIMEOUT_MS),
		});
		const body = await response.text();
		return {
			kind: 'answer',
			status: response.status,
			location: response.headers.get('location') ?? undefined,
			body,
		};
	} catch (error) {
		const failure = networkFailure(error);
		return {
			kind: 'network',
			fault: failure.fault,
			detail: failure.code ?? innermostMessage(error),
		};
	}
}

/** fetch says only "fetch failed"; what failed is in its cause ("bad port" for a port fetch never connects to). */
function innermostMessage(error: unknown): string | undefined {
	let message: string | undefined;
	for (
		let current = error, depth = 0;
		typeof current === 'object' && current !== null && depth < 5;
		depth++
	) {
		const { message: text, cause } = current as { message?: unknown; cause?: unknown };
		if (typeof text === 'string' && text !== '') message = text;
		current = cause;
	}
	return message;
}

/** The node's credentialTest method. Its message never holds the key. */
export async function testCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey : '';
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	const result = baseUrl.ok
		? credentialTestVerdict(
				await probe(`${baseUrl.value}${CREDENTIAL_TEST_PATH}`, apiKey),
				baseUrl.value,
			)
		: fail(baseUrl.problem);
	return { status: result.status, message: redact(result.message, apiKey) };
}
