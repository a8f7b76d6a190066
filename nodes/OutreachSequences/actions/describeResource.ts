/** Builds a resource's Operation selector and fields from the operations it registers. */
import type { INodeProperties } from 'n8n-workflow';

import type { OperationName, ResourceName, OperationDefinition } from '../helpers/interfaces';

export interface ResourceDescription {
	operations: OperationDefinition[];
	properties: INodeProperties[];
}

export function describeResource(spec: {
	resource: ResourceName;
	noun: string;
	defaultOperation: OperationName;
	operations: OperationDefinition[];
}): ResourceDescription {
	const { resource, operations, defaultOperation } = spec;
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: `What to do with the ${spec.noun}`,
		displayOptions: { show: { resource: [resource] } },
		options: operations
			.map(({ operation, option }) => ({
				name: option.name,
				value: operation,
				action: option.action,
				description: option.description,
			}))
			.sort((a, b) => a.name.localeCompare(b.name)),
		// Named, not taken from the list: n8n saves no parameter left at its default, so it must never change.
		default: defaultOperation,
	};
	return {
		operations,
		properties: [selector, ...operations.flatMap((definition) => definition.properties)],
	};
}
