import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { FailureText, HttpAnswer, TransportFault } from './errors';
import { describeHttpFailure, describeTransportFailure, header, networkFaultKind } from './errors';
import { CREDENTIAL_TYPE } from './names';
import type { AttemptFailure } from './retry';
import type { OutreachRequest } from './types';
import { isPlainObject } from './validation';

/** What every request of one run shares, worked out once per run. */
export interface Connection {
	baseUrl: string;
	credentials: ICredentialsDecrypted;
	credentialName: string;
	timeoutMs: number;
	allowUnauthorizedCerts: boolean;
}

/** Replace every occurrence of the API key, so no error text can carry it. */
export function redact(text: string, secret: unknown): string {
	if (typeof secret !== 'string' || secret.length < 4) return text;
	return text.split(secret).join('[API key]');
}

/** The one place a failure becomes the NodeApiError the user sees, with the key redacted. */
export function failureError(
	node: INode,
	connection: Connection,
	text: FailureText,
	itemIndex: number,
	httpCode?: number,
): NodeApiError {
	const secret = connection.credentials.data?.apiKey;
	const message = redact(text.message, secret);
	const description = redact(text.description, secret);
	// The cause is built here from plain text: the HTTP library's error holds
	// the request headers, and with them the key.
	const cause: JsonObject = { message, description };
	if (httpCode !== undefined) cause.httpCode = String(httpCode);
	return new NodeApiError(node, cause, {
		message,
		description,
		httpCode: httpCode === undefined ? undefined : String(httpCode),
		itemIndex,
	});
}

const NETWORK_CODE = /^[A-Z_]+$/;

/**
 * The network code of an error from the HTTP helpers, wherever it is nested.
 * n8n 2.x keeps the HTTP library's error, with its `code`, in the cause chain;
 * n8n 1.x wraps it in a NodeApiError that keeps only the code, as `httpCode`.
 */
export function transportFaultOf(error: unknown): TransportFault {
	const seen = new Set<unknown>();
	let current: unknown = error;
	let message: string | undefined;
	let wrappedCode: string | undefined;
	while (typeof current === 'object' && current !== null && !seen.has(current)) {
		seen.add(current);
		const candidate = current as { code?: unknown; httpCode?: unknown; message?: unknown; cause?: unknown };
		if (message === undefined && typeof candidate.message === 'string') message = candidate.message;
		if (typeof candidate.code === 'string' && NETWORK_CODE.test(candidate.code)) {
			return { code: candidate.code, message: typeof candidate.message === 'string' ? candidate.message : message };
		}
		if (wrappedCode === undefined && typeof candidate.httpCode === 'string' && NETWORK_CODE.test(candidate.httpCode)) {
			wrappedCode = candidate.httpCode;
		}
		current = candidate.cause;
	}
	return { code: wrappedCode, message };
}

/** One send of one request: the service's JSON object, or what failed and how to say it. */
export type Attempt =
	| { ok: true; json: IDataObject }
	| { ok: false; failure: AttemptFailure; text: FailureText; httpCode?: number };

/** Send one request once. Never throws for what the service or the network does. */
export async function attemptRequest(
	context: IExecuteFunctions,
	connection: Connection,
	request: OutreachRequest,
): Promise<Attempt> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${connection.baseUrl}${request.path}`,
		json: true,
		returnFullResponse: true,
		// Every status comes back to us, so that errors name what failed.
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

	let answer: HttpAnswer;
	try {
		answer = (await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, options, {
			// Decrypted once per run instead of once per item.
			credentialsDecrypted: connection.credentials,
		})) as HttpAnswer;
	} catch (error) {
		const fault = transportFaultOf(error);
		return {
			ok: false,
			failure: { kind: 'network', fault: networkFaultKind(fault) },
			text: describeTransportFailure(fault, request.subject, connection.baseUrl, connection.timeoutMs),
		};
	}

	if (answer.statusCode >= 200 && answer.statusCode < 300 && isPlainObject(answer.body)) {
		return { ok: true, json: answer.body as IDataObject };
	}
	return {
		ok: false,
		failure: { kind: 'http', status: answer.statusCode, retryAfter: header(answer.headers, 'retry-after') },
		text: describeHttpFailure(answer, request.subject, connection.credentialName),
		httpCode: answer.statusCode,
	};
}
