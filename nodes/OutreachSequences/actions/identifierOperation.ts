/** Operations whose only input is one identifier in the path, with no body and no query string. */
import { NodeOperationError } from 'n8n-workflow';

import { identifierProperty, toolDescriptionProperty } from './common.descriptions';
import type {
	OperationName,
	ResourceName,
	ItemReader,
	OperationDefinition,
	OperationOption,
	OutreachRequest,
} from '../helpers/interfaces';
import { encodePathSegment, toIdentifier } from '../helpers/validation';

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

export function identifierOperation(spec: {
	operationId: string;
	option: OperationOption;
	request: {
		resource: ResourceName;
		operation: OperationName;
		method: OutreachRequest['method'];
		path: (segment: string) => string;
		done: string;
		readOnly?: boolean;
	};
	field: { name: string; displayName: string; noun: string; placeholder: string };
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
