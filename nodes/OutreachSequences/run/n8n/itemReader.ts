/**
 * How the operation builders read a run's items (ItemReader, helpers/interfaces.ts).
 * n8n stores each parameter as the user set it; one that holds no expression
 * anywhere gives every item the same value, so what a builder works out of it
 * is worked out for the first item and kept for the run. One that holds an
 * expression is read, and worked out, for each item. Nothing is kept past the run.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import type { ItemReader } from '../../helpers/interfaces';

/** Whether a stored parameter value holds an expression anywhere: text that starts with "=", as n8n tells one. */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (typeof value !== 'object' || value === null) return false;
	return Object.values(value).some(holdsExpression);
}

/** Whether parameter `name` is stored, and holds no expression: the same for every item. */
function sameForEveryItem(node: INode, name: string): boolean {
	const { parameters } = node;
	return Object.hasOwn(parameters, name) && !holdsExpression(parameters[name]);
}

export function itemReader(context: IExecuteFunctions): ItemReader {
	const node = context.getNode();
	/** Per parameter: whether it is the same for every item. */
	const constant = new Map<string, boolean>();
	/** What was worked out of a parameter that is the same for every item. */
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
