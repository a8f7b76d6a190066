// The example workflows' sticky notes cover no node: neither its box nor the
// name under it nor the labels of its outputs to its right (Success, Error).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from '../../scripts/n8n/versions.mts';

interface WorkflowNode {
	name: string;
	type: string;
	position: [number, number];
	parameters?: { width?: number; height?: number };
}

const EXAMPLES = path.join(ROOT, 'examples');
/** n8n's canvas: a node is 100 by 100 at its position; its name goes below, its outputs' labels to its right. */
const NODE = { width: 100, height: 100, namesBelow: 50, labelsRight: 120, margin: 20 };
/** A sticky note's size when its parameters leave it out (n8n's defaults). */
const NOTE = { width: 240, height: 160 };

type Box = { left: number; top: number; right: number; bottom: number };
const overlap = (a: Box, b: Box) =>
	a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

const workflows = readdirSync(EXAMPLES).filter((file) => file.endsWith('.json'));

test.each(workflows)('%s: no sticky note covers a node, its name or its output labels', (file) => {
	const nodes = (
		JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as { nodes: WorkflowNode[] }
	).nodes;
	const isNote = (node: WorkflowNode) => node.type === 'n8n-nodes-base.stickyNote';
	const covered = nodes.filter(isNote).flatMap((note) => {
		const [left, top] = note.position;
		const box = {
			left,
			top,
			right: left + (note.parameters?.width ?? NOTE.width),
			bottom: top + (note.parameters?.height ?? NOTE.height),
		};
		return nodes
			.filter((node) => !isNote(node))
			.filter((node) => {
				const [x, y] = node.position;
				return overlap(box, {
					left: x - NODE.margin,
					top: y - NODE.margin,
					right: x + NODE.width + NODE.labelsRight,
					bottom: y + NODE.height + NODE.namesBelow,
				});
			})
			.map((node) => `${note.name} covers ${node.name}`);
	});
	expect(covered).toEqual([]);
});

test('the examples have sticky notes to check', () => {
	const notes = workflows.filter((file) =>
		readFileSync(path.join(EXAMPLES, file), 'utf8').includes('n8n-nodes-base.stickyNote'),
	);
	expect(notes.length).toBeGreaterThan(0);
});
