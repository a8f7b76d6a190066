/**
 * What makes two runs of the node handle "the same item": the same input
 * item (its JSON), at the same run index and item index, for the same
 * operation, Base URL and credential. The record, the journal and the done
 * keys (memory.ts) all match items by it, so an item whose request changed
 * only because the node's settings did is still the same item. A request's
 * fingerprint tells, besides, whether the request itself changed.
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { OutreachRequest } from '../../helpers/interfaces';

/** What every item of one run shares in its identity. */
export interface IdentityScope {
	operation: string;
	baseUrl: string;
	credentialId: string;
	runIndex: number;
}

function digest(text: string): string {
	return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/** The identity of input item `itemIndex`, whose JSON is `json`. */
export function itemIdentity(scope: IdentityScope, itemIndex: number, json: IDataObject): string {
	return digest(
		[
			scope.operation,
			scope.baseUrl,
			scope.credentialId,
			scope.runIndex,
			itemIndex,
			JSON.stringify(json),
		].join('\n'),
	);
}

/** The fingerprint of a request: the same request to the same service gives the same text. */
export function fingerprint(baseUrl: string, request: OutreachRequest): string {
	return digest(`${baseUrl}\n${request.method} ${request.path}\n${request.body ?? ''}`);
}
