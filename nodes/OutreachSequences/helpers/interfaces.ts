/** The shapes an operation is built from: its request, its editor option, and how it reads an item. */
import type { INode, INodeProperties } from 'n8n-workflow';

export interface Subject {
	noun: string;
	id?: string;
	name?: string;
	verb: string;
	done: string;
}

export interface OutreachRequest {
	method: 'GET' | 'POST';
	path: string;
	body?: string;
	subject: Subject;
}

export interface ItemReader {
	node: INode;
	parameter(name: string, itemIndex: number, fallback?: unknown): unknown;
	/** `derive` runs once per run if the value holds no expression (so must not change it); a throw retries per item. */
	perRun<T>(name: string, itemIndex: number, fallback: unknown, derive: (value: unknown) => T): T;
}

/** One operation's file: its Operation option, its fields, and its request (the document's operationId). */
export interface Operation {
	option: { name: string; action: string; description: string };
	properties: INodeProperties[];
	operationId: string;
	/** Changes nothing at the service, so it may be sent again after a 500, 502, 504, reset or timeout. */
	readOnly?: boolean;
	buildRequest: (read: ItemReader, itemIndex: number) => OutreachRequest;
}

/** An operation as its resource registers it, under the names saved workflows store. */
export interface OperationDefinition extends Operation {
	resource: string;
	operation: string;
}

export type UnconfirmedName = 'fail' | 'sendAgain' | 'countAsDone';

export interface RequestOptionsValue {
	batching?: {
		batch?: { batchSize?: number; limit?: 'automatic' | 'fixed'; batchInterval?: number };
	};
	timeout?: number;
	allowUnauthorizedCerts?: boolean;
	rateLimitHandling?: { settings?: { enabled?: boolean; maxRetries?: number; maxWait?: number } };
	unconfirmedEarlierTry?: UnconfirmedName;
	skipDoneBefore?: { keySettings?: { key?: string; windowMinutes?: number } };
	repeatRecentCreates?: boolean;
}
