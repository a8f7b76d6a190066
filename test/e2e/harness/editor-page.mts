// What the editor suite does in a page of n8n's editor, beside openNode
// (browser.mts): a page signed in as the owner in the light or dark theme,
// with the responses of the node's icons it loads; a saved credential's
// dialog, and what it shows; Execute workflow; and a toast put away.
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';

import { PACKAGE_NAME, type N8nServer } from './n8n.mts';
import { canvasNode, openWorkflow, signedInContext } from './browser.mts';

/**
 * A context signed in as the owner with the editor in `theme`. The suite keeps
 * one per theme: its pages share the browser's cache, so that each does not
 * load the editor's scripts afresh.
 */
export async function themedContext(
	browser: Browser,
	server: N8nServer,
	theme: 'light' | 'dark',
): Promise<BrowserContext> {
	const context = await signedInContext(browser, server, {
		viewport: { width: 1440, height: 900 },
		colorScheme: theme,
	});
	await context.addInitScript({
		content: `localStorage.setItem('N8N_THEME', ${JSON.stringify(theme)});`,
	});
	return context;
}

/**
 * New pages, each in its theme's context, made on first use: a test closes
 * its page, and the contexts last until the browser closes.
 */
export function themedPages(browser: () => Browser, server: () => N8nServer) {
	const contexts: Partial<Record<'light' | 'dark', BrowserContext>> = {};
	return async (theme: 'light' | 'dark') => {
		contexts[theme] ??= await themedContext(browser(), server(), theme);
		return await pageWithIcons(contexts[theme]);
	};
}

/** Opens a workflow as openWorkflow does (page, server, workflow, node), and clicks Execute workflow. */
export async function executeWorkflow(...open: Parameters<typeof openWorkflow>): Promise<void> {
	await openWorkflow(...open);
	await open[0].locator('[data-test-id="execute-workflow-button"]').click();
}

/** Waits until the canvas shows that the node `node` ran and succeeded. */
export const ranWell = (page: Page, node: string) =>
	canvasNode(page, node)
		.locator('[data-test-id="canvas-node-status-success"]')
		.waitFor({ timeout: 90_000 });

/** A new page in `context`, and the responses of the node's icons it loads. */
export async function pageWithIcons(
	context: BrowserContext,
): Promise<{ page: Page; icons: Response[] }> {
	const page = await context.newPage();
	const icons: Response[] = [];
	page.on('response', (response) => {
		if (response.url().includes(PACKAGE_NAME) && response.url().endsWith('.svg'))
			icons.push(response);
	});
	return { page, icons };
}

/** Opens the saved credential `id`, which runs its test: its dialog. */
export async function openCredential(page: Page, server: N8nServer, id: string): Promise<Locator> {
	await page.goto(`${server.url}/home/credentials/${id}`);
	const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
	await dialog.waitFor({ timeout: 60_000 });
	return dialog;
}

/** The credential dialog shows API Key, masked (the key is nowhere in the page), and Base URL as stored. */
export async function expectCredentialForm(
	dialog: Locator,
	{ apiKey, url }: { apiKey: string; url: string },
): Promise<void> {
	for (const label of [/^API Key/, /^Base URL/])
		await expect(dialog.getByText(label).first().isVisible()).resolves.toBe(true);
	const secret = dialog.locator('input[type="password"]');
	await expect(secret.count()).resolves.toBe(1);
	await expect(secret.inputValue()).resolves.not.toContain(apiKey);
	await expect(dialog.locator(`input[value="${url}"]`).count()).resolves.toBe(1);
}

/** Closes the toast that says `text` if it is still up, and waits until it is gone. */
export async function closeToast(page: Page, text: string): Promise<void> {
	const toast = page.getByRole('alert').filter({ hasText: text });
	await toast
		.locator('.el-notification__closeBtn')
		.click({ timeout: 5_000 })
		.catch(() => undefined);
	await toast.waitFor({ state: 'hidden' });
}
