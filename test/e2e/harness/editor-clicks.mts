// A user's moves in n8n 2.x's editor, each click counted by name (a
// double-click as two; keystrokes not at all): Execute workflow, once or
// twice; the stop error, read in the node's output pane; Request Options ›
// Unconfirmed Earlier Try set as an expression, which n8n saves by itself;
// and Executions › Retry › Retry with currently saved workflow.
import type { Locator, Page } from 'playwright-core';

import { canvasNode } from './browser.mts';
import { executeWorkflow } from './editor-page.mts';
import { getWorkflow, waitForEnd } from './editor-rest.mts';
import { CREATE_NODE } from './re-runs.mts';
import type { Execution, N8n } from './stage.mts';

/** The clicks a user makes, each by name, in order. A double-click counts as two. */
export class Clicks {
	readonly made: string[] = [];

	async click(name: string, target: Locator): Promise<void> {
		this.made.push(name);
		await target.click();
	}

	async doubleClick(name: string, target: Locator): Promise<void> {
		this.made.push(`${name} (double-click, 1)`, `${name} (double-click, 2)`);
		await target.dblclick();
	}
}

/** n8n's test ids are data-test-id, not playwright's data-testid. */
const byTestId = (scope: Page | Locator, id: string) => scope.locator(`[data-test-id="${id}"]`);

/** What `find` gives, asked every 250 ms until it gives something; after `ms`, an error saying `missing`. */
async function poll<T>(
	find: () => Promise<T | undefined>,
	missing: string,
	ms = 60_000,
): Promise<T> {
	const deadline = Date.now() + ms;
	for (;;) {
		const found = await find();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(missing);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * Execute workflow on `workflow` (before the count), and its stop error, read
 * where a user reads it: in the node's output pane, opened from the canvas,
 * with the clicks that takes; and the execution that stopped.
 */
export async function readStopError(page: Page, n8n: N8n, workflow: string) {
	await executeWorkflow(page, n8n.server, workflow, CREATE_NODE);
	await page.getByRole('alert').filter({ hasText: 'Problem in node' }).waitFor({ timeout: 60_000 });
	const clicks = new Clicks();
	await clicks.doubleClick(`open ${CREATE_NODE}`, canvasNode(page, CREATE_NODE));
	const output = byTestId(page, 'output-panel');
	const [stopped] = await n8n.executions(workflow);
	return {
		clicks,
		stopped: stopped.id,
		message: await byTestId(output, 'node-error-message').innerText(),
		description: await byTestId(output, 'node-error-description').innerText(),
	};
}

/**
 * Request Options › Add Option › Unconfirmed Earlier Try, switched to an
 * expression and typed in (keystrokes, not counted), then the node closed.
 * n8n 2.x saves by itself: this waits until the saved workflow holds it.
 */
export async function setUnconfirmed(
	page: Page,
	n8n: N8n,
	clicks: Clicks,
	{ workflow, expression }: { workflow: string; expression: string },
): Promise<void> {
	const ndv = page.locator('[data-test-id="ndv"]');
	await clicks.click(
		'Request Options › Add Option',
		byTestId(ndv, 'collection-parameter-add').last(),
	);
	await clicks.click(
		'Unconfirmed Earlier Try',
		page.getByText('Unconfirmed Earlier Try', { exact: true }).last(),
	);
	const field = byTestId(ndv, 'unconfirmedEarlierTry-parameter-input-options-container');
	await field.hover();
	await clicks.click('Expression', byTestId(field, 'radio-button-expression'));
	// n8n focuses the expression, holding the option's value: select it, and type over it.
	await byTestId(ndv, 'parameter-input-unconfirmedEarlierTry')
		.locator('.cm-content:focus')
		.filter({ hasText: 'fail' })
		.waitFor();
	await page.keyboard.press('ControlOrMeta+a');
	await page.keyboard.insertText(expression);
	// What it gives for the item shown: n8n has taken the expression in.
	await byTestId(ndv, 'parameter-expression-preview-unconfirmedEarlierTry')
		.filter({ hasText: /^(countAsDone|sendAgain)$/ })
		.waitFor();
	await clicks.click('close the node', byTestId(ndv, 'ndv-close-button'));
	const saved = async () => {
		const { nodes } = await getWorkflow(n8n, workflow);
		const options = nodes.find((node) => node.name === CREATE_NODE)?.parameters?.requestOptions;
		return (options as Record<string, unknown> | undefined)?.unconfirmedEarlierTry;
	};
	await poll(
		async () => ((await saved()) === `=${expression}` ? true : undefined),
		'n8n did not save the expression within 20 s',
		20_000,
	);
}

/** The `count`th execution of `workflow` (from 1), once it has ended. */
async function executionEnded(n8n: N8n, workflow: string, count: number): Promise<Execution> {
	const id = await poll(
		async () => (await n8n.executions(workflow)).at(-count)?.id,
		`${workflow} has not run ${count} times`,
	);
	return await waitForEnd(n8n, id);
}

/** Execute workflow on `workflow`, and again once that run has ended: both executions, once ended. */
export async function executeTwice(
	page: Page,
	n8n: N8n,
	workflow: string,
): Promise<[Execution, Execution]> {
	await executeWorkflow(page, n8n.server, workflow, CREATE_NODE);
	const first = await executionEnded(n8n, workflow, 1);
	await byTestId(page, 'execute-workflow-button').click();
	return [first, await executionEnded(n8n, workflow, 2)];
}

/** Executions › Retry › Retry with currently saved workflow, of the execution the tab opens on: the retry, once it ended. */
export async function retryFromExecutions(
	page: Page,
	n8n: N8n,
	clicks: Clicks,
	{ workflow, failed }: { workflow: string; failed: string },
): Promise<Execution> {
	await clicks.click('Executions', byTestId(page, 'radio-button-executions'));
	await byTestId(page, `execution-preview-details-${failed}`).waitFor();
	await clicks.click('Retry', byTestId(page, 'execution-preview-retry-button'));
	await clicks.click(
		'Retry with currently saved workflow',
		page.getByText(/^Retry with currently saved workflow/).last(),
	);
	const retry = await poll(
		async () =>
			(await n8n.executions(workflow)).find((execution) => String(execution.retryOf) === failed),
		`No retry of execution ${failed} started`,
	);
	return await waitForEnd(n8n, retry.id);
}
