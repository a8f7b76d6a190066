// How the operation builders read a run's items (run/n8n/settings.ts): a
// parameter that holds no expression, at any depth, is read from n8n and
// worked out once per run; one that holds an expression, for each item.
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { itemReader } from '../../nodes/OutreachSequences/run/n8n/settings.ts';

/** Reads `p` for items 3, 4 and 5 (each value `v<item>`), with `derive`; what each gave, and the reads n8n saw. */
function readThree(parameters: INode['parameters'], derive = (value: unknown) => value) {
	const reads: number[] = [];
	const context = {
		getNode: () => ({ parameters }),
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			reads.push(itemIndex);
			return name in parameters ? `v${itemIndex}` : fallback;
		},
	} as unknown as IExecuteFunctions;
	const read = itemReader(context);
	const values = [3, 4, 5].map((item) => {
		try {
			return read.perRun('p', item, 'none', derive);
		} catch (error) {
			return (error as Error).message;
		}
	});
	return { values, reads };
}

test.each([
	[
		'no expression: once, for the first item asked',
		{ p: 'fixed = not one' },
		[3],
		['v3', 'v3', 'v3'],
	],
	['an expression: for each item', { p: '={{ $json.id }}' }, [3, 4, 5], ['v3', 'v4', 'v5']],
	['a deep one', { p: { s: [{ h: 9 }, { h: '={{ $json.h }}' }] } }, [3, 4, 5], ['v3', 'v4', 'v5']],
	['none deep down: once', { p: { s: [{ h: 9, n: null }] } }, [3], ['v3', 'v3', 'v3']],
	['not stored: its fallback, for each item', {}, [3, 4, 5], ['none', 'none', 'none']],
])('a parameter with %s', (_, parameters, reads, values) => {
	expect(readThree(parameters)).toEqual({ values, reads });
});

test('what fails to be worked out is not kept: each item fails on its own', () => {
	const { values, reads } = readThree({ p: '{ not json' }, (value) => {
		throw new Error(`${String(value)}: not JSON`);
	});
	expect(values).toEqual(['v3: not JSON', 'v4: not JSON', 'v5: not JSON']);
	expect(reads).toEqual([3, 4, 5]);
});
