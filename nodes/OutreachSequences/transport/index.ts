/** The one way a request goes out: n8n's authenticated HTTP helper, failures classified, never thrown. */
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
} from 'n8n-workflow';

import type { OutreachRequest } from '../helpers/interfaces';
import { isPlainObject } from '../helpers/validation';
import type { Failure, HttpAnswer } from './failure';
import { parseRetryAfter, thrownFailure } from './failure';
import type { Quota } from '../run/pace/quota';
import { quotaOf } from '../run/pace/quota';

export interface Connection {
	baseUrl: string;
	credentials: ICredentialsDecrypted;
	credentialName: string;
	timeoutMs: number;
	allowUnauthorizedCerts: boolean;
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
	const value = key === undefined ? undefined : headers[key];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

export type Attempt =
	| { ok: true; json: IDataObject; quota?: Quota }
	| { ok: false; failure: Failure };

export function attemptOf(answer: HttpAnswer, nowMs: number, method: 'GET' | 'POST'): Attempt {
	const { statusCode: status, headers, body } = answer;
	const quota = quotaOf(headers, nowMs);
	if (status >= 200 && status < 300 && isPlainObject(body))
		return { ok: true, json: body as IDataObject, quota };
	const asked = parseRetryAfter(header(headers, 'retry-after'), nowMs);
	const pushedBack = status === 429 || status === 503;
	const retryAfterMs = asked ?? (pushedBack ? quota?.resetMs : undefined);
	const retryAfter = asked !== undefined;
	return { ok: false, failure: { kind: 'http', status, method, retryAfterMs, retryAfter, answer } };
}

export async function send(
	context: IExecuteFunctions,
	connection: Connection,
	request: OutreachRequest,
): Promise<Attempt> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${connection.baseUrl}${request.path}`,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// A redirect must never carry the X-API-Key to another host.
		disableFollowRedirect: true,
		timeout: connection.timeoutMs,
	};
	if (request.body !== undefined) {
		options.body = request.body;
		options.headers = { 'Content-Type': 'application/json' };
	}
	if (connection.allowUnauthorizedCerts) options.skipSslCertificateValidation = true;
	try {
		// Decrypted once per run instead of once per item.
		const decrypted = { credentialsDecrypted: connection.credentials };
		const answer = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			'outreachSequencesApi',
			options,
			decrypted,
		)) as HttpAnswer;
		return attemptOf(answer, Date.now(), request.method);
	} catch (error) {
		return { ok: false, failure: thrownFailure(error) };
	}
}
