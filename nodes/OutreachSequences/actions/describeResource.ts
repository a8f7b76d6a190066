import type { INodeProperties } from 'n8n-workflow';

import { Field } from '../helpers/names';
import type { OperationName, ResourceName } from '../helpers/names';
import type { OperationDefinition } from '../helpers/interfaces';

/** A resource as the node file spreads it: its operations, and its fields. */
export interface ResourceDescription {
	operations: OperationDefinition[];
	/** The Operation selector, then each operation's own fields. */
	properties: INodeProperties[];
}

/**
 * A resource's Operation selector, built from the operation files it
 * registers. The default is named rather than taken from the list: n8n saves
 * no parameter left at its default, so a saved workflow runs whatever the
 * default is, and registering an operation must not change it.
 */
export function describeResource(spec: {
	resource: ResourceName;
	/** How the editor names one record: "contact list". */
	noun: string;
	defaultOperation: OperationName;
	operations: OperationDefinition[];
}): ResourceDescription {
	const { resource, operations, defaultOperation } = spec;
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: Field.operation,
		type: 'options',
		noDataExpression: true,
		description: `What to do with the ${spec.noun}`,
		displayOptions: { show: { [Field.resource]: [resource] } },
		// Sorted by name, as n8n's lint wants of options it can read.
		options: operations
			.map(({ operation, option }) => ({
				name: option.name,
				value: operation,
				action: option.action,
				description: option.description,
			}))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
	return {
		operations,
		properties: [selector, ...operations.flatMap((definition) => definition.properties)],
	};
}
