// The editor in a real browser: n8n 2.41.1 (`n8n start`) with the package
// installed from its tarball, Debian's chromium driven by playwright-core.
// Opens every registered operation's parameter panel, the credential form, and
// runs the credential test with a good and a wrong key (every case through
// REST: cli.e2e.mts), and shows every execution hint after a run, each
// measured in lines of the output pane (harness/editor-hints.mts). Issue 45,
// on a service of its own (harness/editor-recovery.mts): Execute workflow
// twice creates nothing twice, and the clicks from the first Stop error to a
// run that holds each sequence once. The path to a failed item's outcome
// through an If node, and a 400's details (harness/outcome-path.mts).
// Screenshots: artifacts/e2e/screenshots.

import { TEST_API_KEYS } from '../harness/keys.mts';
import type { Page } from 'playwright-core';

import { openNode, screenshotPath, sharedContext, useChromium } from './harness/browser.mts';
import { PANELS, WRONG } from './harness/editor-cases.mts';
import {
	ALL_HINTS,
	allHintsWorkflow,
	hintsAfterRun,
	hintsScreenshot,
	keepFigures,
	nodeHints,
} from './harness/editor-hints.mts';
import {
	executeTwice,
	readStopError,
	retryFromExecutions,
	setUnconfirmed,
} from './harness/editor-clicks.mts';
import {
	FIRST_STOP,
	RUN_TWICE,
	expectCreatedBefore,
	expectFirstStopError,
	keepClickFigures,
	recoverySetup,
	releaseOnceAllSent,
	warmPace,
} from './harness/editor-recovery.mts';
import { CREATE_NODE, byName, expectEachOnce } from './harness/re-runs.mts';
import {
	executeWorkflow,
	expectCredentialForm,
	openCredential,
	ranWell,
	themedPages,
} from './harness/editor-page.mts';
import { N8N_CURRENT, exampleWorkflowFiles } from './harness/n8n.mts';
import { outreachApiCredential } from './harness/credentials.mts';
import { SANDBOX_CREDENTIAL_ID } from './harness/stage.mts';
import {
	INVALID,
	INVALID_ID,
	KNOWN,
	MODES,
	UNKNOWN,
	invalidWorkflow,
	outcomeWorkflow,
	outcomeWorkflowId,
	type RunData,
} from './harness/outcome-path.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

describe(`n8n ${N8N_CURRENT} editor in chromium`, () => {
	const sandbox = useSandbox(TEST_API_KEYS.editor);
	/** Issue 45's service: its own pace and records. */
	const recovery = useSandbox(TEST_API_KEYS.editor);
	const n8n = useN8n(() => {
		const { credential, workflows } = recoverySetup(recovery());
		return {
			version: N8N_CURRENT,
			name: 'editor-n8n-start',
			run: 'server',
			sandbox: sandbox(),
			credentials: [outreachApiCredential(WRONG, 'not-the-key', sandbox().url), credential],
			workflows: [
				...exampleWorkflowFiles(),
				allHintsWorkflow(),
				...workflows,
				...MODES.map(outcomeWorkflow),
				invalidWorkflow(),
			],
		};
	});
	const browser = useChromium();
	const newPage = themedPages(browser, () => n8n.server);

	test.each(PANELS)(
		'$shot: the parameter panel renders its fields, with the node icon',
		async (panel) => {
			const { page, icons } = await newPage('light');
			await openNode(page, n8n.server, panel.workflow, panel.node);
			const ndv = page.locator('[data-test-id="ndv"]');
			for (const label of panel.labels) {
				await expect(ndv.getByText(label, { exact: true }).first().isVisible()).resolves.toBe(true);
			}
			await page.screenshot({ path: screenshotPath(`operation-${panel.shot}`) });
			expect(icons.length).toBeGreaterThan(0);
			for (const icon of icons) expect(icon.status()).toBe(200);
			await page.close();
		},
	);

	test('the node icon loads in the dark theme too', async () => {
		const theme = 'dark';
		const { page, icons } = await newPage(theme);
		await openNode(page, n8n.server, 'outreach-all-operations', 'Get Use Case');
		await page.locator('[data-test-id="ndv-close-button"]').click();
		await page.screenshot({ path: screenshotPath(`canvas-${theme}`) });
		const loaded = icons.filter((icon) => icon.url().endsWith('/outreachSequences.dark.svg'));
		expect(loaded.length).toBeGreaterThan(0);
		for (const icon of loaded) expect(icon.status()).toBe(200);
		await page.close();
	});

	test('the credential form shows API Key masked and Base URL, and the test passes with the right key', async () => {
		await sandbox().reset();
		const { page } = await newPage('light');
		// Opening a saved credential runs its test.
		const dialog = await openCredential(page, n8n.server, SANDBOX_CREDENTIAL_ID);
		await dialog.getByText('Connection tested successfully').waitFor({ timeout: 30_000 });
		await expectCredentialForm(dialog, sandbox());
		await page.screenshot({ path: screenshotPath('credential-form-good-key') });
		const requests = await sandbox().requests();
		expect(requests.map((request) => `${request.method} ${request.url}`)).toContain(
			'GET /v1/use_cases/n8n-credential-test',
		);
		await page.close();
	});

	test('a wrong key: the credential form says the test failed, after the two requests n8n sends', async () => {
		await sandbox().reset();
		const { page } = await newPage('light');
		const dialog = await openCredential(page, n8n.server, WRONG);
		await dialog.getByText(/Couldn.t connect with these settings/).waitFor({ timeout: 30_000 });
		await page.screenshot({ path: screenshotPath('credential-form-wrong-key') });
		// n8n sends a credential's request again after a 401, as for a key it could refresh.
		expect((await sandbox().requests()).map((request) => request.status)).toEqual([401, 401]);
		await page.close();
	});

	test('Execute workflow on an example runs the node against the sandbox, as the README tells users to do', async () => {
		await sandbox().reset();
		const { page } = await newPage('light');
		await executeWorkflow(page, n8n.server, 'outreach-get-use-case', 'Get Use Case');
		await ranWell(page, 'Get Use Case');
		await page.screenshot({ path: screenshotPath('example-executed') });
		const requests = await sandbox().requests();
		expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			'GET /v1/use_cases/uc-1',
		]);
		expect(requests[0].headers['x-api-key']).toBe(sandbox().apiKey);
		await page.close();
	});

	test('every hint reads in at most three lines of the output pane at 1440×900', async () => {
		await sandbox().reset();
		for (const fault of ALL_HINTS.faults) await sandbox().addFault(fault);
		const { page } = await newPage('light');
		const nodes = Object.keys(ALL_HINTS.counts);
		const hints = await hintsAfterRun(page, n8n.server, ALL_HINTS.workflow, nodes);
		keepFigures('all-hints', hints);
		await hintsScreenshot(page);
		for (const node of nodes) {
			expect({ node, shown: hints[node].length }).toEqual({ node, shown: ALL_HINTS.counts[node] });
			for (const hint of hints[node]) expect(hint.text).not.toBe('');
		}
		for (const hint of Object.values(hints).flat()) expect(hint.lines).toBeLessThanOrEqual(3);
		await page.close();
	});

	test('#45 Execute workflow twice with nothing set: the second run creates nothing again, and says when and in which execution', async () => {
		const { workflow, names: list } = RUN_TWICE;
		await recovery().reset();
		const { page } = await newPage('light');
		const [first, second] = await executeTwice(page, n8n, workflow);
		const held = await byName(recovery());
		expectEachOnce(held, list);
		expect(Object.fromEntries(held.sent)).toEqual({ T1: 1, T2: 1, T3: 1 });
		const hints = await nodeHints(page, CREATE_NODE);
		expectCreatedBefore({ first, second, held, hints });
		await page.close();
	});

	test('#45 from the first Stop error to a run that holds each sequence once: at most 10 clicks', async () => {
		const { workflow, names: list, faults } = FIRST_STOP;
		await warmPace(n8n, recovery());
		for (const fault of faults) await recovery().addFault(fault);
		const { page } = await newPage('light');
		const released = releaseOnceAllSent(recovery());
		const { clicks, stopped, ...error } = await readStopError(page, n8n, workflow);
		await released;
		// The user checks in the service (no click): S4 is there, S7 is not, as the error's example decides.
		const checked = await byName(recovery());
		await setUnconfirmed(page, n8n, clicks, { workflow, expression: FIRST_STOP.expression });
		const retry = await retryFromExecutions(page, n8n, clicks, { workflow, failed: stopped });
		const after = await byName(recovery());
		keepClickFigures(clicks, error, retry, after);
		expectFirstStopError(error, checked);
		expect(retry.status).toBe('success');
		expectEachOnce(after, list);
		expect([after.sent.get('S4'), after.sent.get('S7')]).toEqual([1, 2]);
		expect(clicks.made.length).toBeLessThanOrEqual(10);
		await page.close();
	});

	// One path to a failed item's outcome, executed from the canvas as a user does: the failed item
	// (a contact the service does not know) goes down the If node's true branch in both modes; the
	// archived one does not. And a 400's whole answer in n8n's error box.
	const outcomeContext = sharedContext(browser, () => n8n.server, {
		viewport: { width: 1600, height: 900 },
	});
	async function executeOnCanvas(page: Page, mode: string): Promise<void> {
		await page.goto(`${n8n.server.url}/workflow/${outcomeWorkflowId(mode)}`);
		const notActed = page.locator('[data-test-id="canvas-node"][data-node-name="Not acted"]');
		await notActed.waitFor({ timeout: 60_000 });
		await page.locator('[data-test-id="execute-workflow-button"]').click();
		await notActed
			.locator('[data-test-id="canvas-node-status-success"]')
			.waitFor({ timeout: 60_000 });
	}

	test.each(MODES)(
		'%s: the failed item goes down the true branch, the archived one does not',
		async (mode) => {
			await sandbox().reset();
			const page = await (await outcomeContext()).newPage();
			await executeOnCanvas(page, mode);
			await page.screenshot({ path: screenshotPath(`outcome-path-${N8N_CURRENT}-${mode}`) });
			await page.close();

			const [latest] = await n8n.executions(outcomeWorkflowId(mode));
			const execution = await n8n.execution(latest.id);
			const runData = execution.data.resultData.runData as unknown as RunData;
			const out = (name: string, output = 0) =>
				(runData[name]?.[0]?.data?.main?.[output] ?? []).map((item) => item.json);
			const [yes, no] = [out('Did the service act?', 0), out('Did the service act?', 1)];
			expect(yes.map((json) => json.error)).toEqual([expect.stringContaining(`"${UNKNOWN}"`)]);
			expect(yes.map((json) => (json.message as { outcome: string }).outcome)).toEqual([
				'notActed',
			]);
			// On Error › Continue sends the archived contact on too: it has no outcome, so it is not on the true branch.
			expect(no.map((json) => json.id)).toEqual(mode === 'continueErrorOutput' ? [] : [KNOWN]);
			expect(out('Not acted').map((json) => json.error)).toEqual(yes.map((json) => json.error));
			expect((await sandbox().requests()).map((request) => request.url).sort()).toEqual(
				[KNOWN, UNKNOWN].map((id) => `/v1/contacts/${id}/archive`).sort(),
			);
		},
	);

	test("a 400's validation details: n8n's error box quotes the service's whole answer", async () => {
		await sandbox().reset();
		await sandbox().addFault({ pathPrefix: '/v1/sequences', status: 400, body: INVALID });
		const page = await (await outcomeContext()).newPage();
		await page.goto(`${n8n.server.url}/workflow/${INVALID_ID}`);
		const create = page.locator('[data-test-id="canvas-node"][data-node-name="Create Sequence"]');
		await create.waitFor({ timeout: 60_000 });
		await page.locator('[data-test-id="execute-workflow-button"]').click();
		// The run ends in the node's error (On Error › Stop): wait for the execution n8n saved.
		for (let tries = 0; tries < 120; tries++) {
			const [latest] = await n8n.executions(INVALID_ID);
			if (latest && latest.status !== 'running' && latest.status !== 'new') break;
			await page.waitForTimeout(500);
		}
		await create.dblclick();
		const description = page.locator('[data-test-id="node-error-description"]');
		await description.waitFor({ timeout: 30_000 });
		await page.screenshot({ path: screenshotPath(`outcome-path-${N8N_CURRENT}-400`) });
		// n8n's error box quotes the service's whole answer.
		expect(await description.innerText()).toContain(JSON.stringify(INVALID));
		await page.close();
	});
});
