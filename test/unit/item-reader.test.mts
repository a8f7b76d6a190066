// How the operation builders read a run's items (run/n8n/itemReader.ts): a
// parameter that holds no expression is read from n8n, and worked out, once
// per run; one that holds an expression, for each item.
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { holdsExpression, itemReader } from '../../nodes/OutreachSequences/run/n8n/itemReader.ts';

/** A context whose parameter values are `values(name, itemIndex)`, counting the reads. */
function contextOf(
	parameters: INode['parameters'],
	values: (name: string, item: number) => unknown,
) {
	const reads: string[] = [];
	const node = { name: 'Outreach Sequences', parameters } as unknown as INode;
	const context = {
		getNode: () => node,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			reads.push(`${name}@${itemIndex}`);
			return name in parameters ? values(name, itemIndex) : fallback;
		},
	} as unknown as IExecuteFunctions;
	return { context, reads };
}

test('an expression anywhere in a stored value: text that starts with "=", at any depth', () => {
	expect(holdsExpression('={{ $json.id }}')).toBe(true);
	expect(holdsExpression('plain text = not one')).toBe(false);
	expect(holdsExpression(3)).toBe(false);
	expect(holdsExpression(null)).toBe(false);
	expect(holdsExpression({ schedule: [{ hour: 9, sequenceScripts: 'a, b' }] })).toBe(false);
	expect(holdsExpression({ schedule: [{ hour: 9 }, { hour: '={{ $json.hour }}' }] })).toBe(true);
	expect(holdsExpression({ timezone: '=Europe/{{ $json.city }}' })).toBe(true);
});

test('a parameter without an expression is read and worked out once, for the first item it is asked for', () => {
	const { context, reads } = contextOf({ schedules: { schedule: [{ hour: 9 }] } }, (_, item) => ({
		schedule: [{ hour: 9, item }],
	}));
	const read = itemReader(context);
	const derived: number[] = [];
	const results = [3, 4, 5].map((item) =>
		read.perRun('schedules', item, {}, (value) => {
			derived.push(item);
			return value;
		}),
	);
	expect(reads).toEqual(['schedules@3']);
	expect(derived).toEqual([3]);
	expect(results).toEqual([0, 1, 2].map(() => ({ schedule: [{ hour: 9, item: 3 }] })));
});

test('a parameter with an expression is read and worked out for each item', () => {
	const { context, reads } = contextOf({ contactId: '={{ $json.id }}' }, (_, item) => `c-${item}`);
	const read = itemReader(context);
	const ids = [0, 1, 2].map((item) => read.perRun('contactId', item, undefined, String));
	expect(ids).toEqual(['c-0', 'c-1', 'c-2']);
	expect(reads).toEqual(['contactId@0', 'contactId@1', 'contactId@2']);
});

test('a parameter that is not stored gives its fallback, read for each item', () => {
	const { context, reads } = contextOf({}, () => 'never');
	const read = itemReader(context);
	expect([0, 1].map((item) => read.perRun('name', item, '', (value) => value))).toEqual(['', '']);
	expect(reads).toEqual(['name@0', 'name@1']);
});

test('what fails to be worked out is not kept: each item fails on its own, with its own index', () => {
	const { context, reads } = contextOf({ jsonBody: '{ not json' }, () => '{ not json');
	const read = itemReader(context);
	const failures = [0, 1].map((item) => {
		try {
			return read.perRun('jsonBody', item, undefined, () => {
				throw new Error(`item ${item}: not JSON`);
			});
		} catch (error) {
			return (error as Error).message;
		}
	});
	expect(failures).toEqual(['item 0: not JSON', 'item 1: not JSON']);
	expect(reads).toEqual(['jsonBody@0', 'jsonBody@1']);
});

test('the node is read once, and `parameter` reads an item as n8n gives it', () => {
	const { context, reads } = contextOf({ name: 'fixed' }, (name, item) => `${name} ${item}`);
	const read = itemReader(context);
	expect(read.node.name).toBe('Outreach Sequences');
	expect(read.parameter('name', 7)).toBe('name 7');
	expect(reads).toEqual(['name@7']);
});
