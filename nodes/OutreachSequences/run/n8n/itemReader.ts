/** Reads items for the builders: a parameter with no expression is worked out once per run, not per item. */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { ItemReader } from '../../helpers/interfaces';

export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	return typeof value === 'object' && value !== null && Object.values(value).some(holdsExpression);
}

export function itemReader(context: IExecuteFunctions): ItemReader {
	const node = context.getNode();
	const kept = new Map<string, unknown>();
	const parameter = (name: string, itemIndex: number, fallback?: unknown): unknown =>
		context.getNodeParameter(name, itemIndex, fallback);
	return {
		node,
		parameter,
		perRun<T>(name: string, itemIndex: number, fallback: unknown, derive: (value: unknown) => T) {
			if (kept.has(name)) return kept.get(name) as T;
			const value = derive(parameter(name, itemIndex, fallback));
			const stored = node.parameters[name];
			if (Object.hasOwn(node.parameters, name) && !holdsExpression(stored)) kept.set(name, value);
			return value;
		},
	};
}
