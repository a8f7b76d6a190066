/** Reads items for the builders: a parameter with no expression is worked out once per run, not per item. */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import type { ItemReader } from '../../helpers/interfaces';

export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (typeof value !== 'object' || value === null) return false;
	return Object.values(value).some(holdsExpression);
}

function sameForEveryItem(node: INode, name: string): boolean {
	const { parameters } = node;
	return Object.hasOwn(parameters, name) && !holdsExpression(parameters[name]);
}

export function itemReader(context: IExecuteFunctions): ItemReader {
	const node = context.getNode();
	const constant = new Map<string, boolean>();
	const kept = new Map<string, unknown>();
	const parameter = (name: string, itemIndex: number, fallback?: unknown): unknown =>
		context.getNodeParameter(name, itemIndex, fallback);
	return {
		node,
		parameter,
		perRun<T>(
			name: string,
			itemIndex: number,
			fallback: unknown,
			derive: (value: unknown) => T,
		): T {
			if (kept.has(name)) return kept.get(name) as T;
			const value = derive(parameter(name, itemIndex, fallback));
			let same = constant.get(name);
			if (same === undefined) constant.set(name, (same = sameForEveryItem(node, name)));
			if (same) kept.set(name, value);
			return value;
		},
	};
}
