// Debian's chromium, driven by playwright-core. Never a browser download.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import {
	chromium,
	type Browser,
	type BrowserContext,
	type BrowserContextOptions,
	type Page,
} from 'playwright-core';

import { ARTIFACTS, type N8nServer } from './n8n.mts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.join(ARTIFACTS, 'screenshots');
export const screenshotPath = (name: string) => path.join(SCREENSHOTS, `${name}.png`);

/** Chromium for the describe this is called in, each launch with a fresh profile: launched before its tests, closed after them. */
export function useChromium(): () => Browser {
	let browser: Browser | undefined;
	beforeAll(async () => {
		if (!existsSync(CHROMIUM))
			throw new Error(
				`No browser at ${CHROMIUM}. Install Debian's chromium: apt-get install -y chromium`,
			);
		mkdirSync(SCREENSHOTS, { recursive: true });
		const quiet = [
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		];
		browser = await chromium.launch({
			executablePath: CHROMIUM,
			headless: true,
			args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic', ...quiet],
		});
	});
	afterAll(async () => await browser?.close());
	return () => browser!;
}

/** A browser context signed in as n8n's owner. */
export async function signedInContext(
	browser: Browser,
	server: N8nServer,
	options: BrowserContextOptions = {},
): Promise<BrowserContext> {
	const context = await browser.newContext(options);
	const [name, value] = server.cookie.split('=');
	await context.addCookies([{ name, value, url: server.url }]);
	return context;
}

/**
 * One signed-in context for a describe's tests, made on first use: their pages
 * share the browser's cache, so the editor's scripts load once, not per test.
 */
export function sharedContext(
	browser: () => Browser,
	server: () => N8nServer,
	options: BrowserContextOptions = {},
): () => Promise<BrowserContext> {
	let context: Promise<BrowserContext> | undefined;
	return () => (context ??= signedInContext(browser(), server(), options));
}

/** The node `name` on the editor's canvas. */
export const canvasNode = (page: Page, name: string) =>
	page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);

/** Opens the workflow `workflow` in the editor, once its node `node` is on the canvas. */
export async function openWorkflow(
	page: Page,
	server: N8nServer,
	workflow: string,
	node: string,
): Promise<void> {
	await page.goto(`${server.url}/workflow/${workflow}`);
	await canvasNode(page, node).waitFor({ timeout: 60_000 });
}

/** Opens the workflow `workflow` in the editor, and its node `node`'s panel. */
export async function openNode(
	page: Page,
	server: N8nServer,
	workflow: string,
	node: string,
): Promise<void> {
	await openWorkflow(page, server, workflow, node);
	await canvasNode(page, node).dblclick();
	await page.locator('[data-test-id="ndv"]').waitFor();
}
