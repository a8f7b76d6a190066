// The example workflows' sticky notes cover no node: neither its box, nor the name and subtitle
// under it, nor its handles' labels (Success and Error right of a node on its error output, the
// sub-node inputs' labels under an AI Agent, a sub-node's output label above it). The sizes are
// n8n 2.x's canvas: its editor's nodeViewUtils.ts (GRID_SIZE, DEFAULT_NODE_SIZE,
// CONFIGURATION_NODE_SIZE, calculateNodeSize) and the CSS of CanvasNodeDefault.vue and
// CanvasHandle*.vue; a character's width is an estimate.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from '../../scripts/n8n/versions.mts';

interface WorkflowNode {
	name: string;
	type: string;
	position: [number, number];
	onError?: string;
	parameters?: { width?: number; height?: number };
}
type Connections = Record<string, Record<string, Array<Array<{ node: string }> | null>>>;
type Box = { left: number; top: number; right: number; bottom: number };

const STICKY_NOTE = 'n8n-nodes-base.stickyNote';
const GRID = 16;
const NODE = GRID * 6;
const SUB_NODE = GRID * 5;
/** Under a node: 8 px, the name (16 px at 1.25, two lines at most, about 9 px a character), 4 px, the 16 px subtitle. */
const NAME = { gap: 8, line: 20, subtitle: 4 + 16, charWidth: 9 };
/** Success and Error, 20 px right of the node, 12 px text: about 7 px a character. */
const OUTPUT_LABELS = 20 + 'Success'.length * 7;
/** Sub-node input labels: 24 px under the node, 16 px high, 40 px past its ends; an output label 24 px above. */
const SUB_NODE_LABELS = { below: 24 + 16, side: 40, above: 24 };

const overlap = (a: Box, b: Box) =>
	a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const box = (x: number, y: number, width: number, height: number) => ({
	left: x,
	top: y,
	right: x + width,
	bottom: y + height,
});

/** What n8n draws for a node: its box, then what is drawn around it. */
function drawn(node: WorkflowNode, connections: Connections): Box[] {
	const [x, y] = node.position;
	const aiInputs = new Set(
		Object.values(connections).flatMap((outputs) =>
			Object.entries(outputs)
				.filter(
					([type, to]) => type.startsWith('ai_') && to.flat().some((t) => t?.node === node.name),
				)
				.map(([type]) => type),
		),
	);
	if (aiInputs.size > 0) {
		// calculateNodeSize: a sub-node's width, plus 3 grid squares per input after the first (4 at least).
		const width = SUB_NODE + GRID * 3 * (Math.max(4, aiInputs.size) - 1);
		const { side, below } = SUB_NODE_LABELS;
		return [box(x, y, width, NODE), box(x - side, y + NODE, width + 2 * side, below)];
	}
	const isSubNode = Object.keys(connections[node.name] ?? {}).some((type) =>
		type.startsWith('ai_'),
	);
	const size = isSubNode ? SUB_NODE : NODE;
	const nameWidth = Math.min(node.name.length * NAME.charWidth, size * 2);
	const lines = node.name.length * NAME.charWidth > size * 2 ? 2 : 1;
	const boxes = [
		box(x, y, size, size),
		box(
			x + (size - nameWidth) / 2,
			y + size,
			nameWidth,
			NAME.gap + lines * NAME.line + NAME.subtitle,
		),
	];
	if (isSubNode) boxes.push(box(x, y - SUB_NODE_LABELS.above, size, SUB_NODE_LABELS.above));
	if (node.onError === 'continueErrorOutput') boxes.push(box(x + size, y, OUTPUT_LABELS, size));
	return boxes;
}

const EXAMPLES = path.join(ROOT, 'examples');
const workflows = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.workflow.json'))
	.map((file) => {
		const read = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8'));
		return [file, read as { nodes: WorkflowNode[]; connections: Connections }] as const;
	});

test('the examples have sticky notes to check', () => {
	expect(workflows.some(([, { nodes }]) => nodes.some((node) => node.type === STICKY_NOTE))).toBe(
		true,
	);
});

test.each(workflows)(
	'%s: no sticky note covers a node, its name or its labels',
	(_, { nodes, connections }) => {
		const covered = nodes
			.filter((note) => note.type === STICKY_NOTE)
			.flatMap((note) => {
				// The StickyNote node's width and height default to 240 and 160.
				const { width = 240, height = 160 } = note.parameters ?? {};
				const rectangle = box(...note.position, width, height);
				return nodes
					.filter((node) => node.type !== STICKY_NOTE)
					.filter((node) =>
						drawn(node, connections).some((drawnBox) => overlap(rectangle, drawnBox)),
					)
					.map((node) => `${note.name} covers ${node.name}`);
			});
		expect(covered).toEqual([]);
	},
);
