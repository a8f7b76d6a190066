// A store that fails fails closed (issue 43, point 7), in real n8n (`n8n
// start`): while n8n runs, its table for processed items is taken away from
// under it (renamed in its SQLite database, as a failing disk or a broken
// migration would leave it), and a webhook starts 5 creates, On Error =
// Continue. No create may reach the service: each item fails as `notActed`,
// in a sentence that says n8n's store failed and what to do. Once the table
// is back, the same call creates each sequence once.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { N8N_NODE_LINES } from './harness/n8n.mts';
import { byName, createsWhatTheEventLists, names, postEvent } from './harness/re-runs.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

const SUITE = 'store-fails';
const WORKFLOW = 'outreach-store-fails';
const TABLE = 'processed_data';

describe.each(N8N_NODE_LINES)("n8n %s: n8n's store for processed items fails", (version) => {
	const sandbox = useSandbox(TEST_API_KEYS.storeFails);
	const n8n = useN8n(() => ({
		version,
		name: `${SUITE}-${version}`,
		run: 'server',
		sandbox: sandbox(),
		workflows: [
			createsWhatTheEventLists(WORKFLOW, { settings: { onError: 'continueRegularOutput' } }),
		],
		publish: [WORKFLOW],
		ready: [`/webhook/${WORKFLOW}`],
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(TEST_API_KEYS.storeFails);
	});
	/** Runs SQL on n8n's own database file, beside the running n8n. */
	const sql = (statement: string) => {
		const database = new DatabaseSync(
			path.join(String(n8n.env.N8N_USER_FOLDER), '.n8n', 'database.sqlite'),
		);
		try {
			database.exec('PRAGMA busy_timeout = 10000');
			database.exec(statement);
		} finally {
			database.close();
		}
	};

	test("the table gone: nothing is sent, each item fails as notActed, unsent, with the database's reason", async () => {
		await sandbox().reset();
		sql(`ALTER TABLE ${TABLE} RENAME TO ${TABLE}_away`);
		try {
			const answer = await postEvent(n8n, WORKFLOW, names(5, 'F'));
			const items = answer.body as Array<Record<string, unknown>>;
			expect(answer.status).toBe(200);
			expect(items).toHaveLength(5);
			// The words around the reason: test/unit/texts-re-run.test.mts.
			for (const item of items) {
				expect(item.error).toContain(TABLE);
				expect(item.message).toMatchObject({ outcome: 'notActed', timesSent: 0 });
			}
			expect(new Set(items.map((item) => item.error)).size).toBe(1);
			expect((await sandbox().summary()).requests).toBe(0);
		} finally {
			sql(`ALTER TABLE ${TABLE}_away RENAME TO ${TABLE}`);
		}
	});

	test('the table back: the same call creates each sequence once', async () => {
		const answer = await postEvent(n8n, WORKFLOW, names(5, 'F'));
		const items = answer.body as Array<Record<string, unknown>>;
		expect(items.map((item) => item.error)).toEqual(items.map(() => undefined));
		const { created } = await byName(sandbox());
		expect(Object.fromEntries(created)).toEqual({ F1: 1, F2: 1, F3: 1, F4: 1, F5: 1 });
	});
});
