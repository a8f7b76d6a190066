// One path to a failed item's outcome, in the editor of real n8n (`n8n
// start`, 2.41.1) in chromium: Archive Contact with On Error ›
// Continue, and with Continue (using error output), followed by an If node on
// the expression the README and docs/errors.md give, {{ $json.message.outcome }}
// is equal to notActed. Executed from the canvas, as a user does, the failed
// item (a contact the service does not know) goes down the If node's true
// branch in both modes; the archived one does not. Screenshots:
// artifacts/e2e/screenshots/outcome-path-<version>-<mode>.png.
// On the same n8n, a 400 with validation details: n8n's error box shows the
// service's messages each on a line of its own, then its whole answer
// (outcome-path-<version>-400.png; the lines' words: test/unit/answer-lines.test.mts).
import type { Page } from 'playwright-core';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { screenshotPath, sharedContext, useChromium } from './harness/browser.mts';
import { N8N_CURRENT, ROOT } from './harness/n8n.mts';
import { SANDBOX_CREDENTIAL_ID, useN8n, useSandbox } from './harness/stage.mts';
import {
	MANUAL_TRIGGER,
	outreachCredential,
	outreachNode,
	workflowOf,
} from './harness/workflows.mts';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const MODES = ['continueRegularOutput', 'continueErrorOutput'] as const;
const UNKNOWN = 'zz-404';
const KNOWN = 'c-42';

/** The expression the README, docs/errors.md and the failed-items hint give, as the docs write it. */
const DOCUMENTED = /`(\{\{ \$json\.message\.outcome \}\})`/.exec(
	readFileSync(path.join(ROOT, 'README.md'), 'utf8'),
)![1];

const workflowId = (mode: string) => `e2eOutcome-${mode}`;
const INVALID_ID = 'e2eOutcome-400';
/** An answer with validation details, in a shape the contract does not show (it shows none). */
const INVALID = {
	message: 'Validation failed',
	errors: [
		{ field: 'name', message: 'is too long' },
		{ field: 'schedules', message: 'must not be empty' },
	],
};

/** Start → Create Sequence, which the sandbox answers with a 400 and INVALID. */
function invalidWorkflow() {
	return workflowOf(INVALID_ID, [
		MANUAL_TRIGGER,
		outreachNode(
			'Create Sequence',
			{ resource: 'sequence', operation: 'create', name: 'Too long a name' },
			{ credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox') },
		),
	]);
}

/** Start → two contacts → Archive Contact (On Error: mode) → If outcome is notActed → Not acted / Other. */
function workflow(mode: (typeof MODES)[number]) {
	const node = (name: string, type: string, typeVersion: number, parameters = {}) => ({
		name,
		type,
		typeVersion,
		parameters,
	});
	const nodes = [
		MANUAL_TRIGGER,
		node('Contacts', 'n8n-nodes-base.set', 3.4, {
			mode: 'raw',
			jsonOutput: JSON.stringify({ contacts: [{ id: UNKNOWN }, { id: KNOWN }] }),
			options: {},
		}),
		node('One item per contact', 'n8n-nodes-base.splitOut', 1, {
			fieldToSplitOut: 'contacts',
			options: {},
		}),
		outreachNode(
			'Archive Contact',
			{ resource: 'contact', operation: 'archive', contactId: '={{ $json.id }}' },
			{
				credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox'),
				onError: mode,
			},
		),
		node('Did the service act?', 'n8n-nodes-base.if', 2, {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
				conditions: [
					{
						id: 'outcome',
						leftValue: `=${DOCUMENTED}`,
						rightValue: 'notActed',
						operator: { type: 'string', operation: 'equals' },
					},
				],
				combinator: 'and',
			},
			options: {},
		}),
		node('Not acted', 'n8n-nodes-base.noOp', 1),
		node('Other', 'n8n-nodes-base.noOp', 1),
	];
	const to = (target: string) => [{ node: target, type: 'main', index: 0 }];
	return {
		id: workflowId(mode),
		name: `Outreach e2e: outcome path, ${mode}`,
		active: false,
		nodes: nodes.map((entry, index) => ({
			id: `node-${index}`,
			position: [index * 220, index >= 5 ? (index === 5 ? -120 : 120) : 0],
			...entry,
		})),
		connections: {
			Start: { main: [to('Contacts')] },
			Contacts: { main: [to('One item per contact')] },
			'One item per contact': { main: [to('Archive Contact')] },
			// With the error output, only the failed items go on to the If node.
			'Archive Contact': {
				main:
					mode === 'continueErrorOutput'
						? [[], to('Did the service act?')]
						: [to('Did the service act?')],
			},
			'Did the service act?': { main: [to('Not acted'), to('Other')] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The items a node put out on each output in the execution's run data. */
type RunData = Record<
	string,
	Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>
>;

describe.each([N8N_CURRENT])(
	'n8n %s: an If node on the documented outcome expression',
	(version) => {
		const sandbox = useSandbox(TEST_API_KEYS.outcomePath);
		const n8n = useN8n(() => ({
			version,
			name: `outcome-path-${version}`,
			run: 'server',
			sandbox: sandbox(),
			workflows: [...MODES.map(workflow), invalidWorkflow()],
		}));
		const browser = useChromium();
		const context = sharedContext(browser, () => n8n.server, {
			viewport: { width: 1600, height: 900 },
		});

		async function executeOnCanvas(page: Page, mode: string): Promise<void> {
			await page.goto(`${n8n.server.url}/workflow/${workflowId(mode)}`);
			const notActed = page.locator('[data-test-id="canvas-node"][data-node-name="Not acted"]');
			await notActed.waitFor({ timeout: 60_000 });
			await page.locator('[data-test-id="execute-workflow-button"]').click();
			await notActed
				.locator('[data-test-id="canvas-node-status-success"]')
				.waitFor({ timeout: 60_000 });
		}

		test('the documented expression is the one the README gives', () => {
			expect(DOCUMENTED).toBe('{{ $json.message.outcome }}');
		});

		test.each(MODES)(
			'%s: the failed item goes down the true branch, the archived one does not',
			async (mode) => {
				await sandbox().reset();
				const page = await (await context()).newPage();
				await executeOnCanvas(page, mode);
				await page.screenshot({ path: screenshotPath(`outcome-path-${version}-${mode}`) });
				await page.close();

				const [latest] = await n8n.executions(workflowId(mode));
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

		test("a 400's validation details: n8n's error box shows the service's messages as lines, then its whole answer", async () => {
			await sandbox().reset();
			await sandbox().addFault({ pathPrefix: '/v1/sequences', status: 400, body: INVALID });
			const page = await (await context()).newPage();
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
			await page.screenshot({ path: screenshotPath(`outcome-path-${version}-400`) });
			// As the browser lays it out: each message on a line of its own, the raw answer last.
			const shown = (await description.innerText()).split('\n').map((line) => line.trim());
			const said = ['Validation failed', 'is too long', 'must not be empty'];
			const lines = said.map((text) => shown.slice(0, -1).findIndex((line) => line.includes(text)));
			expect(lines.every((line) => line >= 0)).toBe(true);
			expect(new Set(lines).size).toBe(said.length);
			expect(shown[shown.length - 1]).toContain(JSON.stringify(INVALID));
			await page.close();
		});
	},
);
