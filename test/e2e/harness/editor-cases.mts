// What the editor suite opens: each registered operation's node in the
// all-operations example (examples/ is what `npm start` imports), found by
// its resource and operation, and the labels its panel shows; and the
// credential with a wrong key whose test fails in the credential form.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { operations } from '../../../nodes/OutreachSequences/OutreachSequences.node.ts';
import { requiredField } from './cli.mts';
import { ROOT } from './n8n.mts';

export const WRONG = 'outreachWrongKey';
const ALL_OPERATIONS = 'outreach-all-operations';
const example = JSON.parse(
	readFileSync(path.join(ROOT, 'examples', 'all-operations.workflow.json'), 'utf8'),
) as { nodes: Array<{ name: string; parameters: Record<string, unknown> }> };

/** Per registered operation: the example's node that shows its required field, and the labels of its panel. */
export const PANELS = operations.map((definition) => {
	const { label, shown } = requiredField(definition);
	const { name } = example.nodes.find(({ parameters }) =>
		Object.entries(shown).every(([key, value]) => parameters[key] === value),
	)!;
	return {
		shot: `${definition.resource}-${definition.operation}`,
		workflow: ALL_OPERATIONS,
		node: name,
		labels: ['Resource', 'Operation', label, 'Request Options'],
	};
});
