/** The error a failed item gives up with: its last failure's text, why not resent, the API key redacted. */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ItemFailure } from '../outcome/failedItem';
import type { RetryPolicy } from '../loop/retry';
import type { FailureText } from '../outcome/words';
import { describeFailure, notSentAgainText, serviceDownText } from '../outcome/texts';
import { unconfirmedFailedText, unknownBeforeText } from '../outcome/reRunTexts';
import type { Failure } from '../../transport/failure';
import type { Connection } from '../../transport/index';
import { redact } from '../../helpers/secret';

type Described = Exclude<ItemFailure, { kind: 'notSent' | 'broken' }>;

function textOf(failure: Described, connection: Connection, policy: RetryPolicy): FailureText {
	const { subject } = failure.request;
	const describe = (last: Failure) => describeFailure(last, { ...connection, subject });
	if (failure.kind === 'gaveUp')
		return notSentAgainText(describe(failure.failure), failure, policy);
	if (failure.kind === 'serviceDown') {
		const last = failure.last && describe(failure.last);
		return serviceDownText(failure.down, failure.sends, last, subject);
	}
	const earlier = unknownBeforeText(subject, failure.earlier, failure.itemIndex);
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
	if (failure.kind === 'notSent' || failure.kind === 'broken') {
		const { error } = failure;
		if (!(error instanceof NodeApiError || error instanceof NodeOperationError))
			return new NodeOperationError(node, error as Error, { itemIndex });
		error.context.itemIndex = itemIndex;
		return error;
	}
	const secret = connection.credentials.data?.apiKey;
	const text = textOf(failure, connection, policy);
	const message = redact(text.message, secret);
	const description = redact(text.description, secret);
	if (failure.kind === 'unknownBefore')
		return new NodeOperationError(node, message, { itemIndex, description });
	const last = failure.kind === 'serviceDown' ? failure.last : failure.failure;
	const httpCode = last?.kind === 'http' ? String(last.status) : undefined;
	// Plain text, not the HTTP library's error: that holds the request headers, and with them the key.
	const cause: JsonObject = { message, description };
	if (httpCode !== undefined) cause.httpCode = httpCode;
	return new NodeApiError(node, cause, { message, description, httpCode, itemIndex });
}
