import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { identifierProperty, toolDescriptionProperty } from './descriptions';
import type { OperationName, ResourceName } from './names';
import type { OperationDefinition, OutreachRequest } from './types';
import { encodePathSegment, toIdentifier } from './validation';

/** Read an identifier field of one item, or throw an error that names the field. */
export function readIdentifier(
	context: IExecuteFunctions,
	itemIndex: number,
	field: { name: string; displayName: string },
): string {
	const checked = toIdentifier(context.getNodeParameter(field.name, itemIndex), field.displayName);
	if (!checked.ok) throw new NodeOperationError(context.getNode(), checked.problem, { itemIndex });
	return checked.value;
}

/**
 * An operation whose only input is one identifier in the path, with no body
 * and no query string: archive a contact, archive a list, get a use case.
 */
export function identifierOperation(spec: {
	resource: ResourceName;
	operation: OperationName;
	method: OutreachRequest['method'];
	readOnly?: boolean;
	/** "contact", as errors name it */
	noun: string;
	field: { name: string; displayName: string; description: string; placeholder: string };
	/** What a model using the node as a tool is told (see toolDescriptionProperty). */
	toolDescription: string;
	/** The path, given the identifier already encoded as one segment. */
	path: (segment: string) => string;
}): OperationDefinition {
	const { resource, operation, field } = spec;
	return {
		resource,
		operation,
		readOnly: spec.readOnly === true,
		properties: [
			identifierProperty({ ...field, show: { resource: [resource], operation: [operation] } }),
			toolDescriptionProperty({ resource: [resource], operation: [operation] }, spec.toolDescription),
		],
		buildRequest(context, itemIndex) {
			const id = readIdentifier(context, itemIndex, field);
			return {
				method: spec.method,
				path: spec.path(encodePathSegment(id)),
				subject: { noun: spec.noun, id, verb: operation },
			};
		},
	};
}
