// As an AI Agent's tool, a failure is the tool's result in words, whatever On Error says.
import { failuresAsItems, isToolVariant } from '../../nodes/OutreachSequences/shared/tool';
import { NODE_TYPE } from '../harness/engine';

test('the tool variant is the node type plus "Tool", as n8n names it', () => {
	expect(isToolVariant(`${NODE_TYPE}Tool`)).toBe(true);
	expect(isToolVariant(NODE_TYPE)).toBe(false);
});

test.each([
	{ continueOnFail: false, type: NODE_TYPE, expected: false },
	{ continueOnFail: true, type: NODE_TYPE, expected: true },
	{ continueOnFail: false, type: `${NODE_TYPE}Tool`, expected: true },
	{ continueOnFail: true, type: `${NODE_TYPE}Tool`, expected: true },
])('On Error continues: $continueOnFail, node $type → failures as items: $expected', ({ continueOnFail, type, expected }) => {
	expect(failuresAsItems(continueOnFail, type)).toBe(expected);
});
