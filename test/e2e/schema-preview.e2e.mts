// Map fields before you run: in real n8n (`n8n start`), with the package
// installed from its tarball, the server serves each operation's output
// schema, and the editor shows it in the next node's input panel before
// anything has run. In chromium, `id` from the unexecuted Create Sequence is
// dragged into an Edit Fields (Set) value, which becomes {{ $json.id }}; no
// request reaches the service until the workflow is executed, and then the
// value holds the created sequence's id.
// Screenshots: artifacts/e2e/screenshots/schema-preview-<version>*.png.
import { readFileSync } from 'node:fs';

import path from 'node:path';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { openNode, screenshotPath, signedInContext, useChromium } from './harness/browser.mts';
import { N8N_CURRENT, N8N_MAINTAINED, NODE_TYPE, ROOT } from './harness/n8n.mts';
import { SANDBOX_CREDENTIAL_ID, useN8n, useSandbox } from './harness/stage.mts';
import {
	MANUAL_TRIGGER,
	outreachCredential,
	outreachNode,
	workflowOf,
} from './harness/workflows.mts';

const OPERATIONS = ['sequence/create', 'contact/archive', 'contactList/archive', 'useCase/get'];
const WORKFLOW_ID = 'e2eSchemaPreview';

const shipped = (resourceOperation: string) =>
	JSON.parse(
		readFileSync(
			path.join(
				ROOT,
				'dist',
				'nodes',
				'OutreachSequences',
				'__schema__',
				'v1.0.0',
				`${resourceOperation}.json`,
			),
			'utf8',
		),
	) as {
		properties: Record<string, unknown>;
	};

/** Manual Trigger → Create Sequence (never run) → Edit Fields with one empty value, Sequence ID. */
function workflow() {
	return workflowOf(WORKFLOW_ID, [
		MANUAL_TRIGGER,
		outreachNode(
			'Create Sequence',
			{ resource: 'sequence', operation: 'create', name: 'Mapped before running' },
			{ credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox') },
		),
		{
			name: 'Edit Fields',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				assignments: {
					assignments: [{ id: 'sequence-id', name: 'sequenceId', value: '', type: 'string' }],
				},
				options: {},
			},
		},
	]);
}

describe.each([N8N_CURRENT, N8N_MAINTAINED])(
	'n8n %s: schema preview of the unexecuted node',
	(version) => {
		const sandbox = useSandbox(TEST_API_KEYS.schemaPreview);
		const n8n = useN8n(() => ({
			version,
			name: `schema-preview-${version}`,
			run: 'server',
			sandbox: sandbox(),
			workflows: [workflow()],
		}));
		const browser = useChromium();

		test.each(OPERATIONS)(
			'the server serves the shipped %s schema, unchanged',
			async (resourceOperation) => {
				const response = await fetch(
					`${n8n.server.url}/schemas/${NODE_TYPE}/1.0.0/${resourceOperation}.json`,
				);
				expect(response.status).toBe(200);
				expect(await response.json()).toEqual(shipped(resourceOperation));
			},
		);

		test('Edit Fields shows the preview of Create Sequence; id dragged into a value becomes {{ $json.id }}; running fills it', async () => {
			await sandbox().reset();
			const context = await signedInContext(browser(), n8n.server, {
				viewport: { width: 1600, height: 1000 },
			});
			const page = await context.newPage();
			await openNode(page, n8n.server, WORKFLOW_ID, 'Edit Fields');

			const input = page.locator('[data-test-id="ndv-input-panel"]');
			const item = (key: string) =>
				input
					.locator('[data-test-id="run-data-schema-item"]')
					.getByText(key, { exact: true })
					.first();
			await input
				.getByText(/Preview/)
				.first()
				.waitFor({ timeout: 60_000 });
			// Top-level fields of the contract's Sequence, as the shipped schema lists them.
			for (const key of Object.keys(shipped('sequence/create').properties))
				await item(key).waitFor();
			await page.screenshot({ path: screenshotPath(`schema-preview-${version}`) });

			// Drag `id` onto the value of Sequence ID, as a user does.
			const target = page
				.locator(
					'[data-test-id="assignment-collection-assignments"] [data-test-id="assignment-value"]',
				)
				.first();
			const from = (await item('id').boundingBox())!;
			const to = (await target.boundingBox())!;
			await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
			await page.mouse.down();
			for (let step = 1; step <= 20; step++) {
				await page.mouse.move(
					from.x + ((to.x + to.width / 2 - from.x) * step) / 20,
					from.y + ((to.y + to.height / 2 - from.y) * step) / 20,
				);
			}
			await page.mouse.up();
			await target.getByText('{{ $json.id }}').first().waitFor({ timeout: 10_000 });
			await page.screenshot({ path: screenshotPath(`schema-preview-${version}-mapped`) });

			// Saved as an expression, and nothing reached the service to get here.
			await page
				.locator('[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]')
				.first()
				.click();
			await page.keyboard.press('Control+s');
			type Saved = {
				nodes: Array<{
					name: string;
					parameters: { assignments: { assignments: Array<{ name: string; value: string }> } };
				}>;
			};
			const savedAssignments = async () =>
				(await n8n.rest<Saved>('GET', `/workflows/${WORKFLOW_ID}`)).nodes.find(
					(node) => node.name === 'Edit Fields',
				)!.parameters.assignments.assignments;
			for (let tries = 0; tries < 30 && (await savedAssignments())[0].value === ''; tries++)
				await page.waitForTimeout(500);
			expect(await savedAssignments()).toEqual([
				expect.objectContaining({ name: 'sequenceId', value: '={{ $json.id }}' }),
			]);
			expect(await sandbox().requests()).toEqual([]);

			// Run it: one sequence is created, and Sequence ID holds its id.
			await page.locator('[data-test-id="execute-workflow-button"]').click();
			await page
				.locator(
					'[data-test-id="canvas-node"][data-node-name="Edit Fields"] [data-test-id="canvas-node-status-success"]',
				)
				.waitFor({ timeout: 60_000 });
			const requests = await sandbox().requests();
			expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
				'POST /v1/sequences',
			]);
			const summary = await sandbox().summary();
			expect(summary.sequencesCreated).toBe(1);
			// The run's data stays in this page: open the node without reloading.
			await page.locator('[data-test-id="canvas-node"][data-node-name="Edit Fields"]').dblclick();
			const output = page.locator('[data-test-id="output-panel"]');
			await output.getByRole('radio', { name: 'JSON' }).click();
			const created = output.getByText(/seq-\d+-[0-9a-f]{8}/).first();
			await created.waitFor({ timeout: 30_000 });
			await page.screenshot({ path: screenshotPath(`schema-preview-${version}-executed`) });
			const shown = /seq-\d+-[0-9a-f]{8}/.exec((await created.textContent())!)![0];
			expect(await sandbox().record('sequences', shown)).toMatchObject({
				name: 'Mapped before running',
			});
			await context.close();
		});
	},
);
