import type { INode, INodeProperties } from 'n8n-workflow';

import type { OperationName, ResourceName } from './names';

/** What a request is about, so that errors can name it in the user's terms. */
export interface Subject {
	/** "contact", "contact list", "use case", "sequence" */
	noun: string;
	/** The identifier the user gave, when the operation has one. */
	id?: string;
	/** The name the item gives what it creates, when it has one: errors name it. */
	name?: string;
	/** The verb of the operation: "archive", "get", "create". */
	verb: string;
	/** What the verb says of a request the service carried out: "archived", "fetched", "created". */
	done: string;
}

export interface OutreachRequest {
	method: 'GET' | 'POST';
	/** Path below the base URL, already encoded, starting with /v1/. */
	path: string;
	/** The JSON body as text, exactly as it is sent. Absent: no body at all. */
	body?: string;
	subject: Subject;
}

/** How a resource's Operation selector offers an operation: "Archive", "Archive a contact", and what it does. */
export interface OperationOption {
	name: string;
	action: string;
	description: string;
}

/**
 * What a builder reads of an item: its node (for errors) and its parameters.
 * A parameter that holds no expression is the same for every item, so what
 * `perRun` works out of it is worked out once per run; of one that holds an
 * expression, once per item.
 */
export interface ItemReader {
	node: INode;
	parameter(name: string, itemIndex: number, fallback?: unknown): unknown;
	/**
	 * `derive` of the parameter's value; one `derive` per parameter. One that throws is tried
	 * again for the next item, so that each item fails with its own index.
	 */
	perRun<T>(name: string, itemIndex: number, fallback: unknown, derive: (value: unknown) => T): T;
}

/**
 * One operation: its editor fields and the named function that turns an input
 * item into a request. The builder validates, and throws NodeOperationError
 * (with the item index) before anything is sent. It reads only through
 * `read`, and changes nothing it reads.
 */
export interface OperationDefinition {
	resource: ResourceName;
	operation: OperationName;
	/** The operation of the service's OpenAPI document that this one sends; the build reads its output schema there. */
	operationId: string;
	option: OperationOption;
	properties: INodeProperties[];
	/** Changes nothing at the service, so it may be sent again after a 500, 502, 504, reset or timeout. */
	readOnly?: boolean;
	/**
	 * Each request makes something new: a second one makes a second (a sequence). Running the
	 * workflow again by hand or by a webhook does not send again what the node made lately.
	 */
	makesNew?: boolean;
	buildRequest: (read: ItemReader, itemIndex: number) => OutreachRequest;
}
