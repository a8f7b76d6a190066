// How the operation builders read a run's items (run/n8n/settings.ts): a
// parameter that holds no expression is read from n8n, and worked out, once
// per run; one that holds an expression, for each item.
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { holdsExpression, itemReader } from '../../nodes/OutreachSequences/run/n8n/settings.ts';

/** A context whose parameter values are `values(name, itemIndex)`, counting the reads. */
function readerOf(parameters: INode['parameters'], values: (item: number) => unknown) {
	const reads: number[] = [];
	const context = {
		getNode: () => ({ parameters }),
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			reads.push(itemIndex);
			return name in parameters ? values(itemIndex) : fallback;
		},
	} as unknown as IExecuteFunctions;
	return { read: itemReader(context), reads };
}

test.each([
	['={{ $json.id }}', true],
	['plain text = not one', false],
	[3, false],
	[null, false],
	[{ schedule: [{ hour: 9, sequenceScripts: 'a, b' }] }, false],
	[{ schedule: [{ hour: 9 }, { hour: '={{ $json.hour }}' }] }, true],
])('an expression in %j, at any depth: %s', (value, expected) => {
	expect(holdsExpression(value)).toBe(expected);
});

test.each([
	[
		'without an expression: once, for the first item asked',
		{ p: 'fixed' },
		[3],
		['v3', 'v3', 'v3'],
	],
	['with an expression: for each item', { p: '={{ $json.id }}' }, [3, 4, 5], ['v3', 'v4', 'v5']],
	['not stored: its fallback, for each item', {}, [3, 4, 5], ['none', 'none', 'none']],
])('a parameter %s', (_, parameters, reads, values) => {
	const { read, reads: made } = readerOf(parameters, (item) => `v${item}`);
	expect([3, 4, 5].map((item) => read.perRun('p', item, 'none', (value) => value))).toEqual(values);
	expect(made).toEqual(reads);
});

test('what fails to be worked out is not kept: each item fails on its own', () => {
	const { read, reads } = readerOf({ jsonBody: '{ not json' }, () => '{ not json');
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
	expect(reads).toEqual([0, 1]);
});
