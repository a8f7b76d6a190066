// The example workflows' sticky notes cover no node: neither its box, nor the
// name and subtitle n8n writes under it, nor the labels of its handles: Success
// and Error to the right of a node that continues on its error output, the
// sub-node inputs' labels under an AI Agent, a sub-node's output label above it.
// The sizes are n8n 2.x's canvas (DEFAULT_N8N_VERSION): its editor's
// src/app/utils/nodeViewUtils.ts (GRID_SIZE, DEFAULT_NODE_SIZE,
// CONFIGURATION_NODE_SIZE, calculateNodeSize), which @n8n/workflow-sdk's
// src/workflow-builder/constants.ts repeats, and the canvas node's CSS
// (CanvasNodeDefault.vue, CanvasHandle*.vue).
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
interface Workflow {
	nodes: WorkflowNode[];
	connections: Connections;
}
type Box = { left: number; top: number; right: number; bottom: number };

const EXAMPLES = path.join(ROOT, 'examples');
const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

/** nodeViewUtils.ts GRID_SIZE: the canvas grid. */
const GRID_SIZE = 16;
/** nodeViewUtils.ts DEFAULT_NODE_SIZE: a node, its top-left corner at its position. */
const DEFAULT_NODE_SIZE = { width: GRID_SIZE * 6, height: GRID_SIZE * 6 };
/** nodeViewUtils.ts CONFIGURATION_NODE_SIZE: a sub-node (chat model, tool, memory), a circle. */
const CONFIGURATION_NODE_SIZE = { width: GRID_SIZE * 5, height: GRID_SIZE * 5 };
/** nodeViewUtils.ts NODE_MIN_INPUT_ITEMS_COUNT: a node with sub-node inputs is as wide as this many at least. */
const NODE_MIN_INPUT_ITEMS_COUNT = 4;
/**
 * nodeViewUtils.ts calculateNodeSize: a node with sub-node inputs (AI Agent, MCP Server
 * Trigger) is a sub-node's width plus 3 grid squares per input after the first; as tall as a node.
 */
const configurableWidth = (inputs: number) =>
	CONFIGURATION_NODE_SIZE.width +
	GRID_SIZE * 3 * (Math.max(NODE_MIN_INPUT_ITEMS_COUNT, inputs) - 1);
/**
 * CanvasNodeDefault.vue's .description under the node: --spacing--2xs (8 px) below it,
 * twice the node's width, centred; the name in --font-size--md (16 px) at
 * --line-height--sm (1.25), two lines at most; --spacing--4xs (4 px), then the subtitle
 * in --font-size--xs (13 px, about 16 px high). A character of the name is about 9 px
 * wide (an estimate: Inter at 16 px).
 */
const NAME = { gap: 8, line: 20, lines: 2, subtitle: 4 + 16, charWidth: 9 };
/**
 * CanvasHandleMainOutput.vue's .outputLabel: --spacing--md (20 px) right of the output
 * handle, on the node's right edge, in --font-size--2xs (12 px): about 7 px a character
 * (an estimate). The outputs of On Error › Continue (using error output) are Success, Error.
 */
const OUTPUT_LABELS = { gap: 20, charWidth: 7, names: ['Success', 'Error'] };
/**
 * CanvasHandleNonMainInput.vue's label: --spacing--lg (24 px) under the node's bottom
 * edge, 12 px text about 16 px high, centred on its handle (Chat Model*, Memory, Tool:
 * about 40 px either side at the ends). CanvasHandleNonMainOutput.vue's label: 24 px
 * above a sub-node.
 */
const SUB_NODE_LABELS = { below: 24 + 16, side: 40, above: 24 };
/** The StickyNote node's width and height parameters' defaults (n8n-nodes-base). */
const DEFAULT_STICKY_SIZE = { width: 240, height: 160 };

const overlap = (a: Box, b: Box) =>
	a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** What n8n draws for a node: its box, then what is drawn around it. */
function drawn(node: WorkflowNode, connections: Connections): Box[] {
	const [x, y] = node.position;
	const aiInputs = new Set(
		Object.values(connections).flatMap((outputs) =>
			Object.entries(outputs)
				.filter(
					([type, targets]) =>
						type.startsWith('ai_') && targets.flat().some((target) => target?.node === node.name),
				)
				.map(([type]) => type),
		),
	);
	const isSubNode = Object.keys(connections[node.name] ?? {}).some((type) =>
		type.startsWith('ai_'),
	);
	if (aiInputs.size > 0) {
		const width = configurableWidth(aiInputs.size);
		const bottom = y + DEFAULT_NODE_SIZE.height;
		return [
			{ left: x, top: y, right: x + width, bottom },
			{
				left: x - SUB_NODE_LABELS.side,
				top: bottom,
				right: x + width + SUB_NODE_LABELS.side,
				bottom: bottom + SUB_NODE_LABELS.below,
			},
		];
	}
	const { width, height } = isSubNode ? CONFIGURATION_NODE_SIZE : DEFAULT_NODE_SIZE;
	const box = { left: x, top: y, right: x + width, bottom: y + height };
	const nameWidth = node.name.length * NAME.charWidth;
	const lines = nameWidth > width * 2 ? NAME.lines : 1;
	const boxes = [
		box,
		{
			left: x + width / 2 - Math.min(nameWidth, width * 2) / 2,
			top: box.bottom,
			right: x + width / 2 + Math.min(nameWidth, width * 2) / 2,
			bottom: box.bottom + NAME.gap + lines * NAME.line + NAME.subtitle,
		},
	];
	if (isSubNode) boxes.push({ ...box, top: y - SUB_NODE_LABELS.above, bottom: y });
	if (node.onError === 'continueErrorOutput') {
		const longest = Math.max(...OUTPUT_LABELS.names.map((name) => name.length));
		boxes.push({
			...box,
			left: box.right,
			right: box.right + OUTPUT_LABELS.gap + longest * OUTPUT_LABELS.charWidth,
		});
	}
	return boxes;
}

const workflows = readdirSync(EXAMPLES).filter((file) => file.endsWith('.workflow.json'));
const read = (file: string) =>
	JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Workflow;

test.each(workflows)('%s: no sticky note covers a node, its name or its labels', (file) => {
	const { nodes, connections } = read(file);
	const covered = nodes
		.filter((note) => note.type === STICKY_NOTE)
		.flatMap((note) => {
			const [left, top] = note.position;
			const rectangle = {
				left,
				top,
				right: left + (note.parameters?.width ?? DEFAULT_STICKY_SIZE.width),
				bottom: top + (note.parameters?.height ?? DEFAULT_STICKY_SIZE.height),
			};
			return nodes
				.filter((node) => node.type !== STICKY_NOTE)
				.filter((node) => drawn(node, connections).some((box) => overlap(rectangle, box)))
				.map((node) => `${note.name} covers ${node.name}`);
		});
	expect(covered).toEqual([]);
});

test('the examples have sticky notes to check', () => {
	const notes = workflows.filter((file) =>
		read(file).nodes.some((node) => node.type === STICKY_NOTE),
	);
	expect(notes.length).toBeGreaterThan(0);
});
