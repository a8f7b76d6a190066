import { NodeOperationError } from 'n8n-workflow';

import { identifierProperty, toolDescriptionProperty } from './common.descriptions';
import type { OperationName, ResourceName } from '../helpers/names';
import type {
	ItemReader,
	OperationDefinition,
	OperationOption,
	OutreachRequest,
} from '../helpers/interfaces';
import { encodePathSegment, toIdentifier } from '../helpers/validation';

/** Read an identifier field of one item, or throw an error that names the field. */
export function readIdentifier(
	read: ItemReader,
	itemIndex: number,
	field: { name: string; displayName: string },
): string {
	return read.perRun(field.name, itemIndex, undefined, (raw) => {
		const checked = toIdentifier(raw, field.displayName);
		if (!checked.ok) throw new NodeOperationError(read.node, checked.problem, { itemIndex });
		return checked.value;
	});
}

/**
 * An operation whose only input is one identifier in the path, with no body
 * and no query string: archive a contact, archive a list, get a use case.
 */
export function identifierOperation(spec: {
	/** The operation of the service's OpenAPI document that this one sends. */
	operationId: string;
	option: OperationOption;
	/** What the request is: the method, and the path given the identifier already encoded as one segment. */
	request: {
		resource: ResourceName;
		operation: OperationName;
		method: OutreachRequest['method'];
		path: (segment: string) => string;
		/** What the operation's verb says once done: "archived". */
		done: string;
		/** Changes nothing at the service (see OperationDefinition). */
		readOnly?: boolean;
	};
	/** The identifier field; `noun` is how the editor and errors name the record: "contact". */
	field: { name: string; displayName: string; noun: string; placeholder: string };
	/** What a model using the node as a tool is told (see toolDescriptionProperty). */
	toolDescription: string;
}): OperationDefinition {
	const { request, field } = spec;
	const { resource, operation } = request;
	const show = { resource: [resource], operation: [operation] };
	const description = `ID of the ${field.noun} to ${operation}, as the outreach service gives it`;
	return {
		resource,
		operation,
		operationId: spec.operationId,
		option: spec.option,
		readOnly: request.readOnly === true,
		properties: [
			identifierProperty({ ...field, description, show }),
			toolDescriptionProperty(show, spec.toolDescription),
		],
		buildRequest(read, itemIndex) {
			const id = readIdentifier(read, itemIndex, field);
			return {
				method: request.method,
				path: request.path(encodePathSegment(id)),
				subject: { noun: field.noun, id, verb: operation, done: request.done },
			};
		},
	};
}
