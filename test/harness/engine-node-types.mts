// The node types the engine tests give n8n's engine (test/harness/engine.mts):
// two test-only ones, a source of items and a reader of expressions, and the
// registry n8n-core looks every node type up in, as n8n's CLI supplies it.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeData,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';

/** Test-only node types: a source of items, and a reader of expressions. */
export class ItemsNode implements INodeType {
	description = {
		displayName: 'Items',
		name: 'items',
		group: ['input'],
		version: 1,
		description: 'Emits the items given as JSON',
		defaults: { name: 'Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Items', name: 'items', type: 'json', default: '[]' },
		] as INodeProperties[],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json) => ({ json }))];
	}
}

export class ReadNode implements INodeType {
	description = {
		displayName: 'Read',
		name: 'read',
		group: ['transform'],
		version: 1,
		description: 'Evaluates an expression for each item, as a Set node would',
		defaults: { name: 'Read' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Value', name: 'value', type: 'string', default: '' },
		] as INodeProperties[],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, index) => ({
				json: { read: this.getNodeParameter('value', index) as IDataObject },
				pairedItem: { item: index },
			})),
		];
	}
}

export const TEST_NODE_TYPES = { items: 'test.items', read: 'test.read' } as const;

/** Node types by name, as n8n-core asks for them. */
export function nodeTypesOf(types: INodeTypeData): INodeTypes {
	const getByName = (type: string): INodeType | IVersionedNodeType => {
		const found = types[type];
		if (!found) throw new Error(`Unknown node type ${type}`);
		return found.type;
	};
	return {
		getByName,
		getByNameAndVersion: (type, version) =>
			NodeHelpers.getVersionedNodeType(getByName(type), version),
		getKnownTypes: () => ({}),
	};
}
