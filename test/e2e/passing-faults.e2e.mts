// A flaky gateway costs one backoff, not minutes, and a dead service ends the
// run fast, in real n8n (`n8n execute`, 2.x and 1.x): gets that each meet one
// 502, creates past the timeout, a service that accepts connections and never
// answers, and a Base URL whose port refuses. The times are the node's own
// (its executionTime in the run data), held to the targets; the sandbox's
// requests and the items' errors are checked too.
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { ARTIFACTS, freePort, type ExecuteRun, N8N_NODE_LINES } from './harness/n8n.mts';
import { outreachApiCredential } from './harness/credentials.mts';
import { SANDBOX_CREDENTIAL_ID, useN8n, useSandbox } from './harness/stage.mts';
import {
	MANUAL_TRIGGER,
	outreachCredential,
	outreachNode,
	workflowOf,
} from './harness/workflows.mts';

const ITEMS = 20;
const TIMEOUT_MS = 1000;
const NODE = 'Outreach Sequences';

/** Manual Trigger › Set (the items) › Split Out › this node, On Error › Continue. */
function workflow(
	id: string,
	items: object[],
	parameters: Record<string, unknown>,
	credentialId = SANDBOX_CREDENTIAL_ID,
) {
	return workflowOf(id, [
		MANUAL_TRIGGER,
		{
			name: 'Input',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ items }), options: {} },
		},
		{
			name: 'Items',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'items', options: {} },
		},
		outreachNode(NODE, parameters, {
			onError: 'continueRegularOutput',
			credentials: outreachCredential(credentialId),
		}),
	]);
}

const useCases = Array.from({ length: ITEMS }, (_, index) => ({ id: `bulk-${index}` }));
const names = Array.from({ length: ITEMS }, (_, index) => ({ name: `Timed out ${index}` }));
const getUseCase = {
	resource: 'useCase',
	operation: 'get',
	useCaseId: '={{ $json.id }}',
	requestOptions: { timeout: TIMEOUT_MS },
};
const createSequence = {
	resource: 'sequence',
	operation: 'create',
	name: '={{ $json.name }}',
	requestOptions: { timeout: TIMEOUT_MS },
};

const GETS = 'outreach-faults-gets';
const CREATES = 'outreach-faults-creates';
const SILENT = 'outreach-faults-silent';
const REFUSED = 'outreach-faults-refused';

interface Item {
	json: Record<string, unknown>;
}

function nodeRun(run: ExecuteRun): { items: Item[]; seconds: number } {
	const task = run.runData[NODE]?.[0] as
		| { executionTime?: number; data?: { main?: Item[][] } }
		| undefined;
	return { items: task?.data?.main?.[0] ?? [], seconds: (task?.executionTime ?? Infinity) / 1000 };
}

/** A failed item's facts: in `message`, beside `error`. */
const factsOf = (item: Item) => (item.json.message ?? {}) as Record<string, unknown>;

/** An item that failed without being sent at all (the breaker kept it back: test/unit/item-error.test.mts). */
const notSentYet = (item: Item) =>
	typeof item.json.error === 'string' &&
	factsOf(item).timesSent === 0 &&
	factsOf(item).statusCode === null &&
	factsOf(item).networkError === null;

describe.each(N8N_NODE_LINES)('n8n %s: passing faults and a dead service', (version) => {
	/** What each workload took and sent, for artifacts/e2e/passing-faults-<version>.json. */
	const figures: Array<{ workload: string; seconds: number; sent: number; succeeded: number }> = [];
	const keep = (workload: string, seconds: number, items: Item[], sent: number) =>
		figures.push({
			workload,
			seconds,
			sent,
			succeeded: items.filter((item) => item.json.error === undefined).length,
		});
	const sandbox = useSandbox(TEST_API_KEYS.passingFaults, ['--bulk-use-cases', String(ITEMS)]);
	let silent: net.Server;
	let silentUrl = '';
	let refusedUrl = '';
	beforeAll(async () => {
		// Accepts every connection, reads the request, and never answers.
		silent = net.createServer((socket) => socket.on('error', () => undefined));
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
		refusedUrl = `http://127.0.0.1:${await freePort()}`;
	});
	const n8n = useN8n(() => ({
		version,
		name: `passing-faults-${version}`,
		run: 'cli',
		sandbox: sandbox(),
		credentials: [
			outreachApiCredential('outreachSilent', sandbox().apiKey, silentUrl),
			outreachApiCredential('outreachRefused', sandbox().apiKey, refusedUrl),
		],
		workflows: [
			workflow(GETS, useCases, getUseCase),
			workflow(CREATES, names, createSequence),
			workflow(SILENT, useCases, getUseCase, 'outreachSilent'),
			workflow(REFUSED, useCases, getUseCase, 'outreachRefused'),
		],
	}));
	afterAll(async () => {
		mkdirSync(ARTIFACTS, { recursive: true });
		writeFileSync(
			path.join(ARTIFACTS, `passing-faults-${version}.json`),
			`${JSON.stringify(figures, null, 2)}\n`,
		);
		silent?.close();
	});

	test(`${ITEMS} gets that each meet one 502: all succeed within 10 s, each sent twice`, async () => {
		await sandbox().reset();
		await sandbox().addFault({
			pathPrefix: '/v1/use_cases/',
			status: 502,
			body: '<html>Bad Gateway</html>',
			oncePerTarget: true,
		});
		const { run } = await n8n.execute(GETS);
		const { items, seconds } = nodeRun(run);
		expect(items.map((item) => item.json.id)).toEqual(useCases.map((useCase) => useCase.id));
		expect(seconds).toBeLessThan(10);
		const requests = await sandbox().requests();
		keep('gets, each meets one 502', seconds, items, requests.length);
		expect(requests.filter((request) => request.status === 502)).toHaveLength(ITEMS);
		expect(requests.filter((request) => request.status === 200)).toHaveLength(ITEMS);
	});

	test(`${ITEMS} creates past a ${TIMEOUT_MS / 1000} s timeout: the breaker opens with at most 10 sent; the rest fail at once, unsent, notActed`, async () => {
		await sandbox().reset();
		await sandbox().addFault({
			pathPrefix: '/v1/sequences',
			delayMs: 3 * TIMEOUT_MS,
			status: 201,
			body: {},
		});
		const { run } = await n8n.execute(CREATES);
		const { items, seconds } = nodeRun(run);
		const sent = (await sandbox().requests()).length;
		keep('creates past the timeout', seconds, items, sent);
		expect(sent).toBeLessThanOrEqual(10);
		expect(items).toHaveLength(ITEMS);
		const timedOut = items.filter((item) => factsOf(item).networkError === 'timeout');
		expect(timedOut).toHaveLength(sent);
		for (const item of timedOut)
			expect(item.json).toMatchObject({ message: { timesSent: 1, outcome: 'mayHaveActed' } });
		const unsent = items.filter(notSentYet);
		expect(unsent).toHaveLength(ITEMS - sent);
		for (const item of unsent) expect(factsOf(item)).toMatchObject({ outcome: 'notActed' });
		// Each failed item's text names its own sequence.
		items.forEach((item, index) => expect(item.json.error).toContain(`"${names[index].name}"`));
		// Each one sent waited out its timeout, one at a time at first, then one pause and the probe.
		expect(seconds).toBeLessThan((sent * TIMEOUT_MS) / 1000 + 3);
	});

	test('a service that accepts connections and never answers: gets end within 15 s, at most 10 sent, the rest unsent', async () => {
		const { run } = await n8n.execute(SILENT);
		const { items, seconds } = nodeRun(run);
		expect(items).toHaveLength(ITEMS);
		expect(seconds).toBeLessThan(15);
		keep(
			'gets, a service that never answers',
			seconds,
			items,
			items.reduce((sum, item) => sum + Number(factsOf(item).timesSent ?? 1), 0),
		);
		const sentItems = items.filter((item) => factsOf(item).networkError === 'timeout');
		expect(sentItems.length).toBeGreaterThan(0);
		expect(
			items
				.filter((item) => Number(factsOf(item).timesSent) > 0)
				.reduce((sum, item) => sum + Number(factsOf(item).timesSent), 0),
		).toBeLessThanOrEqual(10);
		expect(items.filter(notSentYet).length).toBeGreaterThanOrEqual(ITEMS - 10);
	});

	test('a Base URL whose port refuses: a handful refused, the rest not sent, all notActed, within 5 s', async () => {
		const { run } = await n8n.execute(REFUSED);
		const { items, seconds } = nodeRun(run);
		expect(items).toHaveLength(ITEMS);
		expect(seconds).toBeLessThan(5);
		const refused = items.filter((item) => factsOf(item).networkError === 'refused');
		keep('gets, a port that refuses', seconds, items, refused.length);
		expect(refused.length).toBeGreaterThanOrEqual(5);
		expect(refused.length).toBeLessThanOrEqual(10);
		expect(items.filter(notSentYet)).toHaveLength(ITEMS - refused.length);
		expect(items.every((item) => factsOf(item).outcome === 'notActed')).toBe(true);
	});
});
