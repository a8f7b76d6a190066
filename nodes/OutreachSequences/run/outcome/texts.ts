/** Failure texts in the user's terms: pure functions of a failure, written when an item gives up. */
import { isPlainObject } from '../../helpers/validation';
import type { Failure, HttpAnswer, NetworkFaultKind } from '../../transport/failure';
import { outcomeOf } from '../../transport/failure';
import { answerLines, asLines } from './answerLines';
import type { SettingsSaidNo } from './failedItem';
import { header } from '../../transport/index';
import { refusalText } from './refusal';
import type { FailureSetting, FailureText } from './words';
import { capitalize, describeSubject, duration, SERVICE, times } from './words';

const MAX_QUOTED = 2000;
// The contract shows no error body: quote only a top-level message-like text; the description has it all.
export function serviceMessage(body: unknown): string | undefined {
	if (!isPlainObject(body)) return undefined;
	for (const key of ['message', 'error', 'detail']) {
		const value = body[key];
		if (typeof value === 'string' && value.trim() !== '') {
			const text = value.trim();
			return text.length > 300 ? `${text.slice(0, 300)}…` : text;
		}
	}
	return undefined;
}

function bodyAsText(body: unknown): string {
	if (body === undefined || body === null || body === '') return '';
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	return text.length > MAX_QUOTED
		? `${text.slice(0, MAX_QUOTED)}… (${text.length} characters in all)`
		: text;
}

function answeredWith(answer: HttpAnswer): string {
	const text = bodyAsText(answer.body);
	const type = header(answer.headers, 'content-type');
	const kind = type ? ` (${type})` : '';
	// One line alone is the message already quoted, so only several are listed.
	const lines = answerLines(answer.body);
	if (lines.length > 1)
		return asLines([
			`The service answered HTTP ${answer.statusCode}${kind} with these messages:`,
			...lines.map((line) => `- ${line}`),
			`Its whole answer: ${text}`,
		]);
	return text
		? `The service answered HTTP ${answer.statusCode}${kind}: ${text}`
		: `The service answered HTTP ${answer.statusCode}${kind} with an empty body.`;
}

function retryAfterText(answer: HttpAnswer, askedMs: number | undefined): string {
	const value = header(answer.headers, 'retry-after')?.trim();
	if (!value) return '';
	if (/^\d+$/.test(value) && askedMs !== undefined)
		return ` It asked to wait ${duration(askedMs)} (Retry-After: ${value}).`;
	return ` It asked to wait until ${value} (Retry-After).`;
}

export function describeFailure(failure: Failure, setting: FailureSetting): FailureText {
	const mayHaveActed = outcomeOf(failure) === 'mayHaveActed';
	const text =
		failure.kind === 'http'
			? describeHttpFailure(failure.answer, failure.retryAfterMs, setting, mayHaveActed)
			: failure.kind === 'refusal'
				? refusalText(
						failure.refusal,
						`to ${setting.subject.verb} ${describeSubject(setting.subject)}`,
						setting.baseUrl,
					)
				: describeNetworkFailure(failure, setting);
	return mayHaveActed ? { ...text, message: `${text.message} ${MAY_HAVE_ACTED}` } : text;
}

const MAY_HAVE_ACTED = 'It may have carried the request out: check before sending it again.';

function describeHttpFailure(
	answer: HttpAnswer,
	askedMs: number | undefined,
	{ subject, credentialName }: FailureSetting,
	mayHaveActed: boolean,
): FailureText {
	const status = answer.statusCode;
	const quoted = serviceMessage(answer.body);
	const said = quoted ? `: ${quoted}` : '';
	const description = answeredWith(answer);
	const what = describeSubject(subject);
	const isText = typeof answer.body === 'string' && answer.body.trim() !== '';

	if (status >= 200 && status < 300) {
		return {
			message: `${capitalize(SERVICE)} answered HTTP ${status} to ${subject.verb} ${what}, but not with a JSON object, so there is no result to output. ${BASE_URL_ADVICE}`,
			description,
		};
	}
	if (status >= 300 && status < 400) {
		const location = header(answer.headers, 'location');
		const to = location ? ` to ${location}` : '';
		// After a create, a 303 points to what the service made (outcomeOf): the Base URL is right.
		const message =
			status === 303 && mayHaveActed
				? `${capitalize(SERVICE)} answered the request to ${subject.verb} ${what} by pointing to its result elsewhere (HTTP 303${to}), which the node does not follow, so the API key only goes to the credential's Base URL.`
				: `${capitalize(SERVICE)} redirected the request to ${subject.verb} ${what} (HTTP ${status}${to}). Redirects are not followed, so the API key only goes to the credential's Base URL: set the Base URL to the service's current address.`;
		return { message, description };
	}
	if (status === 401 || status === 403) {
		return {
			message: `${capitalize(SERVICE)} rejected the API key (HTTP ${status})${said}. Check the API Key in the credential "${credentialName}": keys are made in the service's portal under General › Integrations › API Keys.`,
			description,
		};
	}
	if (status === 429) {
		const wait = retryAfterText(answer, askedMs);
		return {
			message: `${capitalize(SERVICE)} is rate-limiting requests (HTTP 429)${said}.${wait}`,
			description,
			...(wait ? { waitSaid: true } : {}),
		};
	}
	if (status >= 500 || isText) {
		const kind = isText ? ', and its answer is not JSON' : '';
		return {
			message: `${capitalize(SERVICE)} failed (HTTP ${status}) to ${subject.verb} ${what}${said}${kind}.${serverFaultAdvice(status, mayHaveActed)}`,
			description,
		};
	}
	if (status === 404 && subject.id !== undefined) {
		return { message: `${capitalize(what)} was not found (HTTP 404)${said}`, description };
	}
	return {
		message: `${capitalize(SERVICE)} refused to ${subject.verb} ${what} (HTTP ${status})${said}`,
		description,
	};
}

const BASE_URL_ADVICE = "Check that the credential's Base URL is the address of the service's API.";

function serverFaultAdvice(status: number, mayHaveActed: boolean): string {
	if (status < 500) return ` ${BASE_URL_ADVICE}`;
	return status === 503 && !mayHaveActed ? ' Try again later.' : '';
}

// The network code stays out of the message: NodeApiError swaps any message containing one for its own.
function describeNetworkFailure(
	failure: Failure & { kind: 'network' },
	setting: FailureSetting,
): FailureText {
	const { subject, baseUrl, timeoutMs } = setting;
	const code = failure.code ?? '';
	const raw = failure.message ?? '';
	const attempt = `to ${subject.verb} ${describeSubject(subject)}`;
	const description = `Base URL: ${baseUrl}. Network error: ${code || 'none'}${raw ? ` (${raw})` : ''}.`;
	const messages: Record<NetworkFaultKind, () => string> = {
		timeout: () =>
			noAnswer.timeout(attempt, `${timeoutMs} ms, the limit set in Request Options › Timeout (Ms)`),
		refused: () => noAnswer.refused(baseUrl),
		reset: () => noAnswer.reset(attempt),
		dns: () => noAnswer.dns(baseUrl),
		tls: () =>
			`${noAnswer.tls(baseUrl)} Turn on Request Options › Ignore SSL Issues (Insecure) only if you trust this server.`,
		cancelled: () => `The request ${attempt} was cancelled because the execution stopped.`,
		other: () => `${noAnswer.other(attempt, baseUrl)} The network error is in the details.`,
	};
	return { message: messages[failure.fault](), description };
}

export const noAnswer = {
	refused: (baseUrl: string) =>
		`Could not connect to ${SERVICE} at ${baseUrl}: the connection was refused. Check the credential's Base URL and that the service is running.`,
	dns: (baseUrl: string) =>
		`The host "${hostOf(baseUrl)}" in the credential's Base URL could not be found: the DNS lookup failed.`,
	tls: (baseUrl: string) => `The TLS certificate of ${baseUrl} was not accepted.`,
	timeout: (attempt: string, limit: string) =>
		`${capitalize(SERVICE)} did not answer the request ${attempt} within ${limit}.`,
	reset: (attempt: string) =>
		`The connection to ${SERVICE} was reset before its answer ${attempt} was complete.`,
	other: (attempt: string, baseUrl: string) =>
		`The request ${attempt} failed on the network before ${SERVICE} at ${baseUrl} answered.`,
};

const OPTION = 'Request Options › Rate Limit Handling';

export function notSentAgainText(
	text: FailureText,
	giveUp: {
		reason: SettingsSaidNo;
		attempts: number;
		askedMs?: number;
		maxRetries: number;
		maxWaitMs: number;
	},
): FailureText {
	const sent = `The item was sent ${times(giveUp.attempts)}`;
	const asked = text.waitSaid ? undefined : giveUp.askedMs;
	const sentences: Record<typeof giveUp.reason, () => string> = {
		disabled: () => `${sent}; ${OPTION} is off, so it was not sent again.`,
		exhausted: () =>
			`${sent}, the most that ${OPTION} › Max Retries per Item (${giveUp.maxRetries}) allows${
				asked === undefined ? '' : `; the service last asked to wait ${duration(asked)}`
			}.`,
		waitTooLong: () =>
			`${sent}; the wait it asked for${asked === undefined ? '' : ` (${duration(asked)})`} is longer than the ${duration(giveUp.maxWaitMs)} that ${OPTION} › Max Wait (Seconds) allows, so it was not sent again.`,
	};
	return {
		message: `${text.message} ${sentences[giveUp.reason]()}`,
		description: text.description,
	};
}

function hostOf(baseUrl: string): string {
	try {
		return new URL(baseUrl).host;
	} catch {
		return baseUrl;
	}
}
