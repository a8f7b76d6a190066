/** Builds a resource's Resource option, Operation selector and fields from the operations it registers. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Operation, OperationDefinition } from '../helpers/interfaces';

export function describeResource(spec: {
	option: INodePropertyOptions & { value: string };
	defaultOperation: string;
	/** By the operation's name, which saved workflows store. */
	operations: Record<string, Operation>;
}) {
	const { defaultOperation } = spec;
	const resource = spec.option.value;
	const operations = Object.entries(spec.operations).map(
		([operation, definition]): OperationDefinition => {
			// Each field shows only for its operation, as Airtable v2's updateDisplayOptions does.
			const only = { resource: [resource], operation: [operation] };
			const properties = definition.properties.map((property) => ({
				...property,
				displayOptions: {
					...property.displayOptions,
					show: { ...only, ...property.displayOptions?.show },
				},
			}));
			return { ...definition, resource, operation, properties };
		},
	);
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: `What to do with the ${spec.option.name.toLowerCase()}`,
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
		option: spec.option,
		operations,
		properties: [selector, ...operations.flatMap((definition) => definition.properties)],
	};
}
