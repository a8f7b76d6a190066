// The one memory (issues 43, 52) in n8n's own store, in real n8n (`n8n start`, SQLite): its table
// taken away while n8n runs fails closed; n8n's Remove Duplicates beside the node keeps its own
// row; and one window holds 50,000 items (Skip Items Done Before, keyed by the contact's ID).
// The crash and the restart: crash.e2e.mts; another worker: queue.e2e.mts; the rest, in n8n's
// engine: test/engine/memory.test.mts. Figures: artifacts/e2e/re-runs-figures.json.
import http from 'node:http';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { outcomeOf } from './harness/crash.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_CURRENT } from './harness/n8n.mts';
import {
	byName,
	createNode,
	createsWhatTheEventLists,
	names,
	postEvent,
} from './harness/re-runs.mts';
import { SANDBOX_CREDENTIAL_ID, useN8n, useSandbox } from './harness/stage.mts';
import {
	outreachCredential,
	outreachNode,
	webhookTrigger,
	workflowOf,
} from './harness/workflows.mts';

const SUITE = 'memory';
const HOOK = 'outreach-memory';
const DEDUPE = 'outreach-memory-dedupe';
const VOLUME = 'outreach-memory-volume';
const TABLE = 'processed_data';
/** As many items as one window of the node's memory holds (docs/re-runs.md › Limits). */
const VOLUME_ITEMS = 50_000;

type Item = Record<string, unknown>;

const code = (name: string, jsCode: string) => ({
	name,
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode },
});

/** Webhook › Items (`count` of { id: 'bulk-<n>' }) › Archive Contact, keyed by the ID › Tally (how many came out, and skipped); no run data saved. */
function archives() {
	const workflow = workflowOf(VOLUME, [
		webhookTrigger(VOLUME),
		code(
			'Items',
			'return Array.from({ length: $input.first().json.body.count }, (_, n) => ({ json: { id: `bulk-${n}` } }));',
		),
		outreachNode(
			'Archive Contact',
			{
				resource: 'contact',
				operation: 'archive',
				contactId: '={{ $json.id }}',
				requestOptions: { skipDoneBefore: { keySettings: { key: '={{ $json.id }}' } } },
			},
			{
				credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox'),
				onError: 'continueRegularOutput',
			},
		),
		code(
			'Tally',
			'const items = $input.all().map((item) => item.json);\nreturn [{ json: { items: items.length, skipped: items.filter((json) => json.skipped === true).length } }];',
		),
	]);
	const settings = { saveDataSuccessExecution: 'none', saveDataErrorExecution: 'none' };
	return { ...workflow, settings: { ...workflow.settings, ...settings } };
}

/** Webhook › Split Out › Remove Duplicates (new values, Scope = Workflow) › Create Sequence; and a second webhook's Clean Database, Scope = Workflow. */
function dedupe() {
	const workflow = createsWhatTheEventLists(DEDUPE);
	const removeDuplicates = {
		id: 'remove-duplicates',
		name: 'Remove Duplicates',
		type: 'n8n-nodes-base.removeDuplicates',
		typeVersion: 2,
		position: [300, 200],
		parameters: {
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json.name }}',
			options: { scope: 'workflow' },
		},
	};
	const create = {
		...createNode(),
		id: 'create',
		position: [500, 200],
		parameters: createNode().parameters ?? {},
	};
	const clean = {
		...webhookTrigger(`${DEDUPE}-clean`),
		id: 'clean-webhook',
		name: 'Clean Webhook',
		position: [0, 400],
		parameters: webhookTrigger(`${DEDUPE}-clean`).parameters ?? {},
	};
	const cleanDatabase = {
		id: 'clean-database',
		name: 'Clean Database',
		type: 'n8n-nodes-base.removeDuplicates',
		typeVersion: 2,
		position: [220, 400],
		parameters: {
			operation: 'clearDeduplicationHistory',
			mode: 'cleanDatabase',
			options: { scope: 'workflow' },
		},
	};
	const link = (node: string) => ({ main: [[{ node, type: 'main', index: 0 }]] });
	workflow.nodes = [
		...workflow.nodes.filter((node) => node.name !== create.name),
		removeDuplicates,
		create,
		clean,
		cleanDatabase,
	] as typeof workflow.nodes;
	Object.assign(workflow.connections, {
		'Split Out': link(removeDuplicates.name),
		[removeDuplicates.name]: link(create.name),
		[clean.name]: link(cleanDatabase.name),
	});
	return workflow;
}

describe(`n8n ${N8N_CURRENT}: one memory in n8n's store`, () => {
	const sandbox = useSandbox(TEST_API_KEYS.memory, ['--bulk-contacts', String(VOLUME_ITEMS)]);
	const n8n = useN8n(() => ({
		version: N8N_CURRENT,
		name: `${SUITE}-${N8N_CURRENT}`,
		run: 'server',
		sandbox: sandbox(),
		workflows: [
			createsWhatTheEventLists(HOOK, { settings: { onError: 'continueRegularOutput' } }),
			dedupe(),
			archives(),
		],
		publish: [HOOK, DEDUPE, VOLUME],
		ready: [`/webhook/${HOOK}`, `/webhook/${DEDUPE}`],
		// Info logging: at debug, n8n logs a line for each of the volume's 100,000 expressions.
		env: { N8N_LOG_LEVEL: 'info' },
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(TEST_API_KEYS.memory);
		// Remove Duplicates' own failure when its row was written in another mode.
		expect(n8n.log()).not.toContain('incompatible setting');
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
	const posted = async (workflowId: string, list: Array<{ name: string }>) => {
		const answer = await postEvent(n8n, workflowId, list);
		expect(answer.status).toBe(200);
		return answer.body as Item[];
	};

	test("n8n's store taken away while n8n runs: nothing is sent, each item fails unsent as notActed; once it is back, each sequence is created once", async () => {
		await sandbox().reset();
		sql(`ALTER TABLE ${TABLE} RENAME TO ${TABLE}_away`);
		let items: Item[];
		try {
			items = await posted(HOOK, names(5, 'F'));
		} finally {
			sql(`ALTER TABLE ${TABLE}_away RENAME TO ${TABLE}`);
		}
		expect(items.map((item) => [outcomeOf(item), (item.message as Item).timesSent])).toEqual(
			Array(5).fill(['notActed', 0]),
		);
		expect((await sandbox().summary()).requests).toBe(0);
		const back = await posted(HOOK, names(5, 'F'));
		expect(back.filter((item) => item.error !== undefined)).toEqual([]);
		expect(Object.fromEntries((await byName(sandbox())).created)).toEqual({
			F1: 1,
			F2: 1,
			F3: 1,
			F4: 1,
			F5: 1,
		});
	});

	test("#43 Remove Duplicates (Scope = Workflow) before the node: it never fails and removes what it saw; its Clean Database leaves the node's memory, which sends nothing again", async () => {
		await sandbox().reset();
		const created = async () => Object.fromEntries((await byName(sandbox())).created);
		const sent = (items: Item[]) =>
			items.filter((item) => item.skipped !== true).map((item) => item.name);
		expect(sent(await posted(DEDUPE, names(4, 'N')))).toEqual(['N1', 'N2', 'N3', 'N4']);
		expect(sent(await posted(DEDUPE, names(6, 'N')))).toEqual(['N5', 'N6']);
		const [one, other] = await Promise.all([
			posted(DEDUPE, names(5, 'X')),
			posted(DEDUPE, names(5, 'Y')),
		]);
		expect([one.length, other.length]).toEqual([5, 5]);
		const cleaned = await fetch(`${n8n.server.url}/webhook/${DEDUPE}-clean`, { method: 'POST' });
		expect(cleaned.status).toBe(200);
		const again = await posted(DEDUPE, names(6, 'N'));
		expect(again.map((item) => item.skipped)).toEqual(Array(6).fill(true));
		expect(Object.values(await created())).toEqual(Array(16).fill(1));
	});

	test(`#43 ${VOLUME_ITEMS} keyed archives, then the same call again: the second execution skips every one and sends nothing`, async () => {
		await sandbox().reset();
		const first = await archiveCount(VOLUME_ITEMS);
		const sentFirst = (await sandbox().summary()).requests;
		await sandbox().reset();
		const second = await archiveCount(VOLUME_ITEMS);
		const sentSecond = (await sandbox().summary()).requests;
		recordFigures(SUITE, N8N_CURRENT, `${VOLUME_ITEMS} archives, twice`, {
			first,
			sentFirst,
			second,
			sentSecond,
		});
		expect({ first, sentFirst }).toEqual({
			first: { items: VOLUME_ITEMS, skipped: 0 },
			sentFirst: VOLUME_ITEMS,
		});
		expect({ second, sentSecond }).toEqual({
			second: { items: VOLUME_ITEMS, skipped: VOLUME_ITEMS },
			sentSecond: 0,
		});
	}, 1_200_000);

	/**
	 * One execution of `count` archives: what came out of the node. Over node:http, which waits
	 * as long as the run takes (fetch gives up on headers after 300 s).
	 */
	const archiveCount = (count: number) =>
		new Promise<Item>((resolve, reject) => {
			const request = http.request(
				`${n8n.server.url}/webhook/${VOLUME}`,
				{ method: 'POST', headers: { 'content-type': 'application/json' } },
				(response) => {
					let text = '';
					response.setEncoding('utf8');
					response.on('data', (chunk: string) => (text += chunk));
					response.on('end', () =>
						response.statusCode === 200
							? resolve(JSON.parse(text) as Item)
							: reject(new Error(`${response.statusCode}: ${text}`)),
					);
				},
			);
			request.on('error', reject);
			request.end(JSON.stringify({ count }));
		});
});
