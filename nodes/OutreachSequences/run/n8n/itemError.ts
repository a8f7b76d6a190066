/** The error a failed item gives up with: its last failure's text, why not resent, the API key redacted. */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ItemFailure } from '../outcome/failedItem';
import { settingsSaidNo } from '../outcome/failedItem';
import type { RetryPolicy } from '../loop/retry';
import type { FailureText } from '../outcome/words';
import { describeFailure, notSentAgainText, serviceDownText } from '../outcome/texts';
import { unconfirmedFailedText, unknownBeforeText } from '../outcome/reRunTexts';
import type { Connection } from '../../transport/index';
import { redact } from '../../helpers/secret';

function asItemError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

export function giveUpText(
	failure: ItemFailure & { kind: 'gaveUp' },
	connection: Connection,
	policy: RetryPolicy,
): FailureText {
	const text = describeFailure(failure.failure, {
		...connection,
		subject: failure.request.subject,
	});
	if (!settingsSaidNo(failure.reason)) return text;
	return notSentAgainText(text, {
		reason: failure.reason,
		attempts: failure.sends,
		askedMs: failure.askedMs,
		maxRetries: policy.maxRetries,
		maxWaitMs: policy.maxWaitMs,
	});
}

function serviceDownItemText(
	failure: ItemFailure & { kind: 'serviceDown' },
	connection: Connection,
): FailureText {
	const last =
		failure.last === undefined
			? undefined
			: describeFailure(failure.last, { ...connection, subject: failure.request.subject });
	return serviceDownText(failure.down, failure.sends, last, failure.request.subject);
}

function unsentText(failure: ItemFailure & { kind: 'unknownBefore' }): FailureText {
	const earlier = unknownBeforeText(failure.request.subject, failure.earlier, failure.itemIndex);
	const { unconfirmedError } = failure;
	return unconfirmedError === undefined
		? earlier
		: unconfirmedFailedText(earlier, unconfirmedError);
}

export function itemError(
	node: INode,
	itemIndex: number,
	failure: ItemFailure,
	connection: Connection,
	policy: RetryPolicy,
): NodeApiError | NodeOperationError {
	if (failure.kind === 'notSent' || failure.kind === 'broken')
		return asItemError(node, failure.error, itemIndex);
	const secret = connection.credentials.data?.apiKey;
	if (failure.kind === 'unknownBefore') {
		const unsent = unsentText(failure);
		return new NodeOperationError(node, redact(unsent.message, secret), {
			itemIndex,
			description: redact(unsent.description, secret),
		});
	}
	const text =
		failure.kind === 'serviceDown'
			? serviceDownItemText(failure, connection)
			: giveUpText(failure, connection, policy);
	const last = failure.kind === 'serviceDown' ? failure.last : failure.failure;
	const message = redact(text.message, secret);
	const description = redact(text.description, secret);
	const httpCode = last?.kind === 'http' ? String(last.status) : undefined;
	// Plain text, not the HTTP library's error: that holds the request headers, and with them the key.
	const cause: JsonObject = { message, description };
	if (httpCode !== undefined) cause.httpCode = httpCode;
	return new NodeApiError(node, cause, { message, description, httpCode, itemIndex });
}
