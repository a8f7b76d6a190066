// The execution hints as the editor suite shows and measures them: a
// workflow whose run gives most of the node's hints at once, the faults that
// make it, and each hint's rendered lines in a node's output pane.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Locator, Page } from 'playwright-core';

import type { Fault } from '../../harness/sandbox.mts';
import { canvasNode, screenshotPath } from './browser.mts';
import { closeToast, executeWorkflow, ranWell } from './editor-page.mts';
import { ARTIFACTS, ROOT, type N8nServer } from './n8n.mts';
import { workflowOf, type WorkflowNode } from './workflows.mts';

const NAMES = Array.from({ length: 10 }, (_, index) => `Spring follow-up ${index + 1}`);

const create = (name: string): Fault => ({
	method: 'POST',
	pathPrefix: '/v1/sequences',
	bodyContains: `"name":"${name}"`,
});

/** The workflow whose run gives most hints at once (allHintsWorkflow), its faults, and how many hints each node shows. */
export const ALL_HINTS = {
	workflow: 'outreach-all-hints',
	/**
	 * Item 0 is created, then answered 500 (it may have been created), so that
	 * n8n runs each Create Sequence again (Retry On Fail, with the failed item
	 * first); item 2 is refused (422); item 5 is pushed back for longer than Max
	 * Wait; the first use case is answered 502 once.
	 */
	faults: [
		{ ...create(NAMES[0]), status: 500, body: { message: 'late' }, afterWrite: true },
		{ ...create(NAMES[2]), status: 422, body: { message: 'name is taken' } },
		{ ...create(NAMES[5]), status: 429, headers: { 'Retry-After': '120' }, body: {} },
		{ pathPrefix: '/v1/use_cases/', status: 502, body: {}, times: 1 },
	] as Fault[],
	/**
	 * How many hints each node shows, in the order the test opens the nodes:
	 * Retry On Fail, failed items, the re-run and the push-back; again, with
	 * the warning that Unconfirmed Earlier Try is one value for every item;
	 * the passing fault. Which hints a run's summary gives, in which words:
	 * test/unit/hints*.test.mts.
	 */
	counts: { 'Create Sequence': 4, 'Create Sequence again': 5, 'Get Use Case': 1 } as Record<
		string,
		number
	>,
};

/**
 * Ten sequences: Create Sequence under Continue with Retry On Fail; again,
 * with Unconfirmed Earlier Try at Count as Done for every item; then Get Use
 * Case for each.
 */
export function allHintsWorkflow() {
	const example = JSON.parse(
		readFileSync(path.join(ROOT, 'examples', 'create-sequence.workflow.json'), 'utf8'),
	) as { nodes: WorkflowNode[] };
	// Without its id and place: workflowOf gives each node its own.
	const { id, position, ...createNode } = example.nodes.find(
		(node) => node.name === 'Create Sequence',
	)!;
	const onContinue = { onError: 'continueRegularOutput', retryOnFail: true, waitBetweenTries: 0 };
	const named = (name: string, expression: string, more: Record<string, unknown> = {}) => ({
		...createNode,
		...onContinue,
		name,
		parameters: { ...createNode.parameters, name: expression, ...more },
	});
	return workflowOf(ALL_HINTS.workflow, [
		example.nodes[0],
		{
			name: 'Input',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				mode: 'raw',
				jsonOutput: JSON.stringify({ sequences: NAMES.map((name) => ({ name })) }),
				options: {},
			},
		},
		{
			name: 'One item per sequence',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'sequences', options: {} },
		},
		named('Create Sequence', '={{ $json.name }}'),
		named('Create Sequence again', "={{ $('One item per sequence').item.json.name }}", {
			requestOptions: { unconfirmedEarlierTry: 'countAsDone' },
		}),
		{
			...createNode,
			onError: 'continueRegularOutput',
			name: 'Get Use Case',
			parameters: { resource: 'useCase', operation: 'get', useCaseId: 'uc-1' },
		},
	]);
}

/** A hint as the output pane renders it: its text, its height in px, and its lines of text. */
export interface RenderedHint {
	text: string;
	height: number;
	lines: number;
}

/** The little of the browser's DOM that renderedHints uses (the tests' types have no DOM). */
interface Box {
	top: number;
	width: number;
	height: number;
}
interface DomNode {
	textContent: string | null;
	getBoundingClientRect(): Box;
}
interface Dom {
	document: {
		createTreeWalker(root: DomNode, show: number): { nextNode(): DomNode | null };
		createRange(): { selectNodeContents(node: DomNode): void; getClientRects(): Iterable<Box> };
	};
}

/** Every hint in `pane`, measured: its lines are the distinct tops of its text's line boxes. */
export async function renderedHints(pane: Locator): Promise<RenderedHint[]> {
	return await pane.locator('[data-test-id="node-hint"]').evaluateAll((hints) =>
		hints.map((element) => {
			const hint = element as unknown as DomNode;
			const { document } = globalThis as unknown as Dom;
			const tops: number[] = [];
			// NodeFilter.SHOW_TEXT
			const walker = document.createTreeWalker(hint, 4);
			for (let node = walker.nextNode(); node; node = walker.nextNode()) {
				if ((node.textContent ?? '').trim() === '') continue;
				const range = document.createRange();
				range.selectNodeContents(node);
				for (const rect of range.getClientRects())
					if (rect.width > 0 && !tops.some((top) => Math.abs(top - rect.top) < 3))
						tops.push(rect.top);
			}
			return {
				text: (hint.textContent ?? '').trim(),
				height: Math.round(hint.getBoundingClientRect().height),
				lines: tops.length,
			};
		}),
	);
}

/** Runs `workflow` (Execute workflow), waits until `last` has run, and measures the hints of each of `nodes`. */
export async function hintsAfterRun(
	page: Page,
	server: N8nServer,
	workflow: string,
	nodes: string[],
): Promise<Record<string, RenderedHint[]>> {
	await executeWorkflow(page, server, workflow, nodes[0]);
	await ranWell(page, nodes[nodes.length - 1]);
	const measured: Record<string, RenderedHint[]> = {};
	for (const name of nodes) measured[name] = await nodeHints(page, name);
	return measured;
}

/** Opens the node `name` on the canvas, measures the hints of its output pane, and closes it. */
export async function nodeHints(page: Page, name: string): Promise<RenderedHint[]> {
	await canvasNode(page, name).dblclick();
	const output = page.locator('[data-test-id="output-panel"]');
	await output.locator('[data-test-id="node-hint"]').first().waitFor({ timeout: 30_000 });
	const hints = await renderedHints(output);
	await page.locator('[data-test-id="ndv-close-button"]').click();
	return hints;
}

/** Each hint's lines and height as measured, kept before the test asserts: artifacts/e2e/hints/<run>.json. */
export function keepFigures(run: string, hints: Record<string, RenderedHint[]>): void {
	mkdirSync(path.join(ARTIFACTS, 'hints'), { recursive: true });
	writeFileSync(path.join(ARTIFACTS, 'hints', `${run}.json`), JSON.stringify(hints, null, 1));
}

/**
 * The screenshot README shows (docs/execution-hints.png), without the
 * "Workflow executed successfully" toast over the output pane's corner. It is
 * refreshed on request only (UPDATE_DOCS_SCREENSHOTS=1), so that a test run
 * leaves the working tree as it was.
 */
export async function hintsScreenshot(page: Page): Promise<void> {
	await closeToast(page, 'Workflow executed successfully');
	const shot = screenshotPath('execution-hints');
	await page.screenshot({ path: shot });
	if (process.env.UPDATE_DOCS_SCREENSHOTS === '1')
		copyFileSync(shot, path.join(ROOT, 'docs', 'execution-hints.png'));
}
