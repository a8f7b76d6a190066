/** Failure texts in the user's terms: pure functions of a failure, written when an item gives up. */
import type { Subject } from '../../helpers/interfaces';
import { isPlainObject } from '../../helpers/validation';
import type { Failure, HttpAnswer, NetworkFaultKind } from '../../transport/failure';
import { outcomeOf } from '../../transport/failure';
import { header } from '../../transport/index';
import type { Refusal, RefusalKind } from '../../transport/refusal';
import type { ServiceDown } from '../pace/breaker';
import { BREAKER_PAUSE_MS } from '../pace/breaker';
import type { NotSentAgain, SettingsSaidNo } from './failedItem';
import { settingsSaidNo } from './failedItem';
import type { FailureSetting, FailureText } from './words';
import { capitalize, cut, describeSubject, duration, pick, SERVICE } from './words';

const THE_SERVICE = capitalize(SERVICE);
const MAY_HAVE_ACTED = 'It may have carried the request out: check before sending it again.';
const BASE_URL_ADVICE = "Check that the credential's Base URL is the address of the service's API.";
const RATE_LIMITS = 'Request Options › Rate Limit Handling';

// The contract shows no error body: quote only a top-level message-like text; the description has it all.
export function serviceMessage(body: unknown): string | undefined {
	if (!isPlainObject(body)) return undefined;
	const said = ['message', 'error', 'detail']
		.map((key) => body[key])
		.find((value): value is string => typeof value === 'string' && value.trim() !== '');
	return said === undefined ? undefined : cut(said.trim(), 300);
}

function answeredWith({ statusCode, body, headers }: HttpAnswer): string {
	const type = header(headers, 'content-type');
	const head = `The service answered HTTP ${statusCode}${type ? ` (${type})` : ''}`;
	if (body === undefined || body === null || body === '') return `${head} with an empty body.`;
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	return `${head}: ${cut(text, 2000, ` (${text.length} characters in all)`)}`;
}

export function describeFailure(failure: Failure, setting: FailureSetting): FailureText {
	const mayHaveActed = outcomeOf(failure) === 'mayHaveActed';
	const attempt = `to ${setting.subject.verb} ${describeSubject(setting.subject)}`;
	const text =
		failure.kind === 'http'
			? {
					message: httpMessage(failure, setting, attempt, mayHaveActed),
					description: answeredWith(failure.answer),
				}
			: failure.kind === 'refusal'
				? refusalText(failure.refusal, attempt, setting.baseUrl)
				: networkText(failure, attempt, setting);
	return mayHaveActed ? { ...text, message: `${text.message} ${MAY_HAVE_ACTED}` } : text;
}

function httpMessage(
	{ status, answer, retryAfterMs }: Failure & { kind: 'http' },
	{ subject, credentialName }: FailureSetting,
	attempt: string,
	mayHaveActed: boolean,
): string {
	const quoted = serviceMessage(answer.body);
	const said = quoted ? `: ${quoted}` : '';
	const location = header(answer.headers, 'location');
	const wait = header(answer.headers, 'retry-after')?.trim();
	const notJson = typeof answer.body === 'string' && answer.body.trim() !== '';
	if (status < 300)
		return `${THE_SERVICE} answered HTTP ${status} ${attempt}, but not with a JSON object, so there is no result to output. ${BASE_URL_ADVICE}`;
	// After a create, a 303 points to what the service made (outcomeOf): the Base URL is right.
	if (status < 400)
		return `${THE_SERVICE} redirected the request ${attempt} (HTTP ${status}${location ? ` to ${location}` : ''}). Redirects are not followed, so the API key only goes to the credential's Base URL${status === 303 && mayHaveActed ? '' : ": set the Base URL to the service's current address"}.`;
	if (status === 401 || status === 403)
		return `${THE_SERVICE} rejected the API key (HTTP ${status})${said}. Check the API Key in the credential "${credentialName}": keys are made in the service's portal under General › Integrations › API Keys.`;
	if (status === 429 && wait)
		return `${THE_SERVICE} is rate-limiting requests (HTTP 429)${said}. It asked to wait ${/^\d+$/.test(wait) && retryAfterMs !== undefined ? `${duration(retryAfterMs)} (Retry-After: ${wait})` : `until ${wait} (Retry-After)`}.`;
	if (status === 429) return `${THE_SERVICE} is rate-limiting requests (HTTP 429)${said}.`;
	if (status >= 500)
		return `${THE_SERVICE} failed (HTTP ${status}) ${attempt}${said}${notJson ? ', and its answer is not JSON' : ''}.${status === 503 && !mayHaveActed ? ' Try again later.' : ''}`;
	// A web page or other text where the API's JSON should be.
	if (notJson)
		return `${THE_SERVICE} failed (HTTP ${status}) ${attempt}, and its answer is not JSON. ${BASE_URL_ADVICE}`;
	if (status === 404 && subject.id !== undefined)
		return `${capitalize(describeSubject(subject))} was not found (HTTP 404)${said}`;
	return `${THE_SERVICE} refused ${attempt} (HTTP ${status})${said}`;
}

// The network code stays out of the message: NodeApiError swaps any message containing one for its own.
function networkText(
	failure: Failure & { kind: 'network' },
	attempt: string,
	{ baseUrl, timeoutMs }: FailureSetting,
): FailureText {
	const code = failure.code ?? '';
	const raw = failure.message ? ` (${failure.message})` : '';
	const messages: Record<NetworkFaultKind, string> = {
		timeout: `${THE_SERVICE} did not answer the request ${attempt} within ${timeoutMs} ms, the limit set in Request Options › Timeout (Ms).`,
		refused: `Could not connect to ${SERVICE} at ${baseUrl}: the connection was refused. Check the credential's Base URL and that the service is running.`,
		reset: `The connection to ${SERVICE} was reset before its answer ${attempt} was complete.`,
		dns: `The host in the credential's Base URL ${baseUrl} could not be found: the DNS lookup failed.`,
		tls: `The TLS certificate of ${baseUrl} was not accepted. Turn on Request Options › Ignore SSL Issues (Insecure) only if you trust this server.`,
		cancelled: `The request ${attempt} was cancelled because the execution stopped.`,
		other: `The request ${attempt} failed on the network before ${SERVICE} at ${baseUrl} answered. The network error is in the details.`,
	};
	return {
		message: messages[failure.fault],
		description: `Base URL: ${baseUrl}. Network error: ${code || 'none'}${raw}.`,
	};
}

const ADMINISTRATOR_CAN: Record<RefusalKind, string> = {
	blockedIp:
		"An n8n administrator can allow the service's address with N8N_SSRF_ALLOWED_IP_RANGES or its host name with N8N_SSRF_ALLOWED_HOSTNAMES",
	blockedHostname:
		'An n8n administrator can take its host name off N8N_SSRF_BLOCKED_HOSTNAMES, or add it to N8N_SSRF_ALLOWED_HOSTNAMES',
	nonRetryable: "An n8n administrator can tell which of n8n's settings stops it",
};

function refusalText(refusal: Refusal, attempt: string, baseUrl: string): FailureText {
	const reason = refusal.reason.trim().replace(/\.$/, '');
	return {
		message: `n8n refused to send the request ${attempt}: ${reason}. Nothing reached ${SERVICE}. ${ADMINISTRATOR_CAN[refusal.kind]}; then send the item again.`,
		description: `${refusal.advice ? `${refusal.advice} ` : ''}Base URL: ${baseUrl}.`,
	};
}

export function notSentAgainText(
	text: FailureText,
	{ reason, sends }: { reason: NotSentAgain; sends: number },
	{ maxRetries, maxWaitMs }: { maxRetries: number; maxWaitMs: number },
): FailureText {
	if (!settingsSaidNo(reason)) return text;
	const why: Record<SettingsSaidNo, string> = {
		disabled: `${RATE_LIMITS} is off`,
		exhausted: `${RATE_LIMITS} › Max Retries per Item (${maxRetries}) allows no more`,
		waitTooLong: `the wait it asked for is longer than the ${duration(maxWaitMs)} that ${RATE_LIMITS} › Max Wait (Seconds) allows`,
	};
	return { ...text, message: sentNotAgain(text.message, sends, why[reason]) };
}

const sentNotAgain = (message: string, sends: number, why: string) =>
	`${message} The item was sent ${pick(sends, 'once', `${sends} times`)}, and not again: ${why}.`;

/** What an item the breaker kept from being sent says, in counts of what failed. */
export function serviceDownText(
	down: ServiceDown,
	sends: number,
	last: FailureText | undefined,
	subject: Subject,
): FailureText {
	const labels = Object.entries(down.labels).map(([label, n]) => `${label}: ${n}`);
	const which = down.failed === down.of ? 'The last' : `${down.failed} of the last`;
	const why = `${which} ${down.of} requests to ${SERVICE} failed with no useful answer (${labels.join(', ')}), the last of them a probe sent after a ${duration(BREAKER_PAUSE_MS)} pause.`;
	if (last === undefined)
		return {
			message: `Not sent: ${SERVICE} looked down, so the node stopped sending to it. Send the request to ${subject.verb} ${describeSubject(subject)} once the service is back.`,
			description: `${why} This item never reached the service.`,
		};
	return {
		message: sentNotAgain(last.message, sends, `${SERVICE} looked down`),
		description: `${why}\n\n${last.description}`,
	};
}
