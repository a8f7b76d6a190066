// `npm run bench` (third part), or `npm run bench:burst` alone: a burst of
// events, each its own execution. N webhook calls arrive at once at a
// published workflow in `n8n start` (regular mode); each archives one contact
// against a service that allows R requests per second (burst R, 429 with
// Retry-After as BENCH_BURST_RETRY_AFTER says, seconds by default). Contenders,
// one after another in one run:
// - this node on default settings;
// - the HTTP Request node on default settings;
// - the HTTP Request node with Settings › Retry On Fail (5 tries, 5 s apart).
// Reported per contender: executions that succeeded (the webhook answered with
// the archived contact), requests the service rejected, archives carried out
// twice, and the time until the last execution answered as a multiple of the
// ideal N ÷ R. BENCH_PACKAGE=<tarball> benchmarks another build (to compare
// with an earlier commit). Writes bench/burst-<n8n>.json and adds it to
// bench/results.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { burstTable, writeReport } from './report.mjs';
import { OUT_DIR, VERSION, limitedSandboxArgs, log, machine, prepare, slug } from './setup.mjs';
import { httpNode, oursNode } from './workloads.mjs';

const version = VERSION;
const N = Number(process.env.BENCH_BURST_EVENTS ?? 100);
const RATE = Number(process.env.BENCH_BURST_RATE ?? 5);
const RETRY_AFTER = process.env.BENCH_BURST_RETRY_AFTER ?? 'seconds';
const outDir = OUT_DIR;
const apiKey = 'bench-burst-key-5c0e4a';

const bench = await prepare({
	version,
	apiKey,
	prefix: 'bench-burst',
	sandboxArgs: limitedSandboxArgs(N, RATE, RETRY_AFTER),
});
const { sandboxUrl, control } = bench;

const contenders = [
	{
		key: 'ours',
		label: 'This node, default settings',
		node: oursNode({
			resource: 'contact',
			operation: 'archive',
			contactId: '={{ $json.body.id }}',
		}),
	},
	{
		key: 'http',
		label: 'HTTP Request node, default settings',
		node: httpNode({
			method: 'POST',
			url: `=${sandboxUrl}/v1/contacts/{{ $json.body.id }}/archive`,
		}),
	},
	{
		key: 'retry',
		label: 'HTTP Request node, Retry On Fail (5 tries, 5 s)',
		node: {
			...httpNode({
				method: 'POST',
				url: `=${sandboxUrl}/v1/contacts/{{ $json.body.id }}/archive`,
			}),
			retryOnFail: true,
			maxTries: 5,
			waitBetweenTries: 5000,
		},
	},
];

const hookPath = (contender) => `bench-burst-${contender.key}`;
const workflowId = (contender) => `burst-${contender.key}`;

/** Webhook (answers with what the last node put out) → the contender. */
const workflow = (contender) => ({
	id: workflowId(contender),
	name: workflowId(contender),
	active: false,
	nodes: [
		{
			id: 'webhook',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: `bench-burst-${contender.key}-hook`,
			parameters: {
				httpMethod: 'POST',
				path: hookPath(contender),
				responseMode: 'lastNode',
				options: {},
			},
		},
		{ id: 'contender', name: 'Contender', position: [220, 0], ...contender.node },
	],
	connections: { Webhook: { main: [[{ node: 'Contender', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
});

await bench.importWorkflows(contenders.map(workflow));
const server = await bench.startServer(contenders.map(workflowId), contenders.map(hookPath));

async function run(contender) {
	await control('reset', 'POST');
	const started = Date.now();
	const answers = await Promise.all(
		Array.from({ length: N }, async (_, index) => {
			const response = await fetch(`${server.url}/webhook/${hookPath(contender)}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ id: `bulk-${index}` }),
			}).catch(() => undefined);
			const body = await response?.json().catch(() => undefined);
			return response?.status === 200 && body?.id === `bulk-${index}`;
		}),
	);
	const seconds = (Date.now() - started) / 1000;
	const service = await control('summary');
	return {
		contender: contender.label,
		key: contender.key,
		succeeded: answers.filter(Boolean).length,
		requests: service.requests,
		rejected: service.byStatus['429'] ?? 0,
		duplicates: service.repeatedSuccesses,
		seconds,
		ofIdeal: seconds / (N / RATE),
	};
}

const rows = [];
for (const contender of contenders) {
	const row = await run(contender);
	rows.push(row);
	log(
		`${contender.label}: ${row.succeeded}/${N} executions succeeded, ${row.rejected} rejected, ${row.duplicates} duplicates, ${row.seconds.toFixed(1)} s (${row.ofIdeal.toFixed(2)} × ideal)`,
	);
}
await server.stop();

const result = {
	date: new Date().toISOString(),
	n8n: version,
	node: process.version,
	machine: machine(),
	package: process.env.BENCH_PACKAGE ? path.basename(process.env.BENCH_PACKAGE) : 'this checkout',
	events: N,
	rate: RATE,
	retryAfter: RETRY_AFTER,
	idealSeconds: N / RATE,
	rows,
};
mkdirSync(outDir, { recursive: true });
writeFileSync(
	path.join(outDir, `burst-${slug(version)}.json`),
	`${JSON.stringify(result, null, 2)}\n`,
);
writeReport(outDir);
console.log(burstTable(result));
await bench.close();
