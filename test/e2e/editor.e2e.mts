// The editor in a real browser: n8n 2.41.1 (`n8n start`) with the package
// installed from its tarball, Debian's chromium driven by playwright-core.
// Opens every operation's parameter panel, the credential form, and runs the
// credential test with a good and a wrong key. Screenshots: artifacts/e2e/screenshots.

import type { Browser, BrowserContext, Page, Response } from 'playwright-core';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { SandboxProcess } from '../harness/sandbox.mts';
import { launchChromium, screenshotPath } from './harness/browser.mts';
import { recordLog } from './harness/logs.mts';
import {
	N8N_CURRENT,
	PACKAGE_NAME,
	exampleWorkflowFiles,
	freePort,
	importCredentials,
	importWorkflows,
	n8nEnv,
	packPackage,
	prepareN8n,
	startN8nServer,
	userFolderWithPackage,
	type N8nServer,
} from './harness/n8n.mts';

const GOOD = 'outreachSandbox';
const WRONG = 'outreachWrongKey';

/** One example workflow per operation (examples/ is what `npm start` imports), and the labels its panel shows. */
const PANELS = [
	{ workflow: 'outreach-archive-contact', node: 'Archive Contact', shot: 'contact-archive', labels: ['Resource', 'Operation', 'Contact ID', 'Request Options'] },
	{ workflow: 'outreach-archive-contact-list', node: 'Archive Contact List', shot: 'contact-list-archive', labels: ['Resource', 'Operation', 'Contact List ID', 'Request Options'] },
	{ workflow: 'outreach-get-use-case', node: 'Get Use Case', shot: 'use-case-get', labels: ['Resource', 'Operation', 'Use Case ID', 'Request Options'] },
	{ workflow: 'outreach-create-sequence', node: 'Create Sequence', shot: 'sequence-create-fields', labels: ['Resource', 'Operation', 'Send Body', 'Name', 'Additional Fields', 'Schedules', 'Day Offset', 'Hour', 'Minute', 'Delay in Minutes', 'Sequence Scripts'] },
	{ workflow: 'outreach-all-operations', node: 'Create Sequence (JSON)', shot: 'sequence-create-json', labels: ['Resource', 'Operation', 'Send Body', 'JSON Body'] },
];

describe(`n8n ${N8N_CURRENT} editor in chromium`, () => {
	let sandbox: SandboxProcess;
	let server: N8nServer;
	let browser: Browser;
	let context: BrowserContext;

	beforeAll(async () => {
		const bin = prepareN8n(N8N_CURRENT);
		const folder = await userFolderWithPackage(packPackage());
		sandbox = await SandboxProcess.start(TEST_API_KEYS.editor);
		const port = await freePort();
		// Debug logging, so that the secret scan reads everything n8n can log.
		const env = n8nEnv(folder, { N8N_PORT: String(port), N8N_RUNNERS_BROKER_PORT: String(await freePort()), N8N_LOG_LEVEL: 'debug' });

		await importCredentials(bin, env, [
			{ id: GOOD, name: 'Outreach sandbox', type: 'outreachSequencesApi', data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
			{ id: WRONG, name: 'Outreach wrong key', type: 'outreachSequencesApi', data: { apiKey: 'not-the-key', baseUrl: sandbox.url } },
		]);
		await importWorkflows(bin, env, exampleWorkflowFiles());

		server = await startN8nServer(bin, env, port);
		browser = await launchChromium();
	});

	afterAll(async () => {
		await browser?.close();
		if (server) {
			await server.daemon.stop();
			recordLog('editor-n8n-start', server.daemon.log());
		}
		await sandbox?.close();
	});

	async function newPage(theme: 'light' | 'dark'): Promise<{ page: Page; icons: Response[] }> {
		context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: theme });
		const [name, value] = server.cookie.split('=');
		await context.addCookies([{ name, value, url: server.url }]);
		await context.addInitScript({ content: `localStorage.setItem('N8N_THEME', ${JSON.stringify(theme)});` });
		const page = await context.newPage();
		const icons: Response[] = [];
		page.on('response', (response) => {
			if (response.url().includes(PACKAGE_NAME) && response.url().endsWith('.svg')) icons.push(response);
		});
		return { page, icons };
	}

	async function openNode(page: Page, workflow: string, node: string): Promise<void> {
		await page.goto(`${server.url}/workflow/${workflow}`);
		const canvasNode = page.locator(`[data-test-id="canvas-node"][data-node-name="${node}"]`);
		await canvasNode.waitFor({ timeout: 60_000 });
		await canvasNode.dblclick();
		await page.locator('[data-test-id="ndv"]').waitFor();
	}

	test('on n8n 2.x the running server offers the node as an AI tool', async () => {
		const response = await fetch(`${server.url}/types/nodes.json`, { headers: { cookie: server.cookie } });
		expect(response.status).toBe(200);
		const types = (await response.json()) as Array<{ name: string }>;
		const names = types.map((type) => type.name);
		expect(names).toContain(`${PACKAGE_NAME}.outreachSequences`);
		expect(names).toContain(`${PACKAGE_NAME}.outreachSequencesTool`);
	});

	test.each(PANELS)('$shot: the parameter panel renders its fields, with the node icon', async (panel) => {
		const { page, icons } = await newPage('light');
		await openNode(page, panel.workflow, panel.node);
		const ndv = page.locator('[data-test-id="ndv"]');
		for (const label of panel.labels) {
			await expect(ndv.getByText(label, { exact: true }).first().isVisible()).resolves.toBe(true);
		}
		await page.screenshot({ path: screenshotPath(`operation-${panel.shot}`) });
		expect(icons.length).toBeGreaterThan(0);
		for (const icon of icons) expect(icon.status()).toBe(200);
		await context.close();
	});

	test.each(['light', 'dark'] as const)('the node icon loads in the %s theme', async (theme) => {
		const { page, icons } = await newPage(theme);
		await openNode(page, 'outreach-all-operations', 'Get Use Case');
		await page.locator('[data-test-id="ndv-close-button"]').click();
		await page.screenshot({ path: screenshotPath(`canvas-${theme}`) });
		const expected = theme === 'dark' ? 'outreachSequences.dark.svg' : 'outreachSequences.svg';
		const loaded = icons.filter((icon) => icon.url().endsWith(`/${expected}`));
		expect(loaded.length).toBeGreaterThan(0);
		for (const icon of loaded) expect(icon.status()).toBe(200);
		await context.close();
	});

	async function openCredential(page: Page, id: string): Promise<ReturnType<Page['locator']>> {
		await page.goto(`${server.url}/home/credentials/${id}`);
		const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
		await dialog.waitFor({ timeout: 60_000 });
		return dialog;
	}

	test('the credential form shows API Key masked and Base URL, and the test passes with the right key', async () => {
		await sandbox.reset();
		const { page } = await newPage('light');
		// Opening a saved credential runs its test.
		const dialog = await openCredential(page, GOOD);
		await dialog.getByText('Connection tested successfully').waitFor({ timeout: 30_000 });
		await expect(dialog.getByText(/^API Key/).first().isVisible()).resolves.toBe(true);
		await expect(dialog.getByText(/^Base URL/).first().isVisible()).resolves.toBe(true);
		const secret = dialog.locator('input[type="password"]');
		await expect(secret.count()).resolves.toBe(1);
		await expect(secret.inputValue()).resolves.not.toContain(sandbox.apiKey);
		await expect(dialog.locator(`input[value="${sandbox.url}"]`).count()).resolves.toBe(1);
		await page.screenshot({ path: screenshotPath('credential-form-good-key') });
		const requests = await sandbox.requests();
		expect(requests.map((request) => `${request.method} ${request.url}`)).toContain('GET /v1/use_cases/n8n-credential-test');
		await context.close();
	});

	test('the credential test with a wrong key fails with a clear message', async () => {
		const { page } = await newPage('light');
		const dialog = await openCredential(page, WRONG);
		await dialog.getByText(/Couldn.t connect with these settings/).waitFor({ timeout: 30_000 });
		await dialog.getByText('More details').click();
		await dialog.getByText('The service rejected the API key (HTTP 401)', { exact: false }).waitFor();
		await page.screenshot({ path: screenshotPath('credential-form-wrong-key') });
		await context.close();
	});

	test('Execute workflow on an example runs the node against the sandbox, as the README tells users to do', async () => {
		await sandbox.reset();
		const { page } = await newPage('light');
		await page.goto(`${server.url}/workflow/outreach-get-use-case`);
		await page.locator('[data-test-id="canvas-node"][data-node-name="Get Use Case"]').waitFor({ timeout: 60_000 });
		await page.locator('[data-test-id="execute-workflow-button"]').click();
		await page
			.locator('[data-test-id="canvas-node"][data-node-name="Get Use Case"] [data-test-id="canvas-node-status-success"]')
			.waitFor({ timeout: 60_000 });
		await page.screenshot({ path: screenshotPath('example-executed') });
		const requests = await sandbox.requests();
		expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /v1/use_cases/uc-1']);
		expect(requests[0].headers['x-api-key']).toBe(sandbox.apiKey);
		await context.close();
	});
});
