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
import { describeHttpFailure, describeTransportFailure } from './errors';
import { CREDENTIAL_TYPE } from './names';
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

function toNodeApiError(
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

/** Send one request and return the service's JSON object unchanged, or throw NodeApiError. */
export async function sendRequest(
	context: IExecuteFunctions,
	connection: Connection,
	request: OutreachRequest,
	itemIndex: number,
): Promise<IDataObject> {
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
		const text = describeTransportFailure(transportFaultOf(error), request.subject, connection.baseUrl, connection.timeoutMs);
		throw toNodeApiError(context.getNode(), connection, text, itemIndex);
	}

	if (answer.statusCode >= 200 && answer.statusCode < 300 && isPlainObject(answer.body)) {
		return answer.body as IDataObject;
	}
	const text = describeHttpFailure(answer, request.subject, connection.credentialName);
	throw toNodeApiError(context.getNode(), connection, text, itemIndex, answer.statusCode);
}
