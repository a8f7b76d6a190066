// `npm run bench` (second part), or `npm run bench:rate-limit` alone: a service
// that allows R requests per second (burst R, 429 with Retry-After in seconds
// beyond that), and N items run as creates and as archives, side by side in
// one run, through real n8n with the package installed from its tarball:
// - this node on default settings (On Error = Continue, to count per item);
// - the HTTP Request node on default settings (On Error = Continue);
// - the HTTP Request node with Settings › Retry On Fail (5 tries, 5 s apart),
//   which acts only with On Error = Stop, so that is how it runs.
// Reported per run: items that came out as successes, what the service did
// (requests, 429s, creates, the same request carried out twice), and the
// node's time as a multiple of the ideal N ÷ R. Writes bench/rate-limit-<n8n>.json
// and .svg, and adds them to bench/results.md. BENCH_RATE_HEADERS=ietf or x
// puts the sandbox's rate-limit headers on every answer (sandbox/rate-limit.mts),
// to measure how few 429s the node meets when it keeps within them; that run
// writes rate-limit-<n8n>-headers-<form>.json/.svg.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { rateLimitChart } from './chart.mjs';
import { rateLimitTable, writeReport } from './report.mjs';
import {
	OUT_DIR,
	VERSION,
	limitedSandboxArgs,
	log,
	machine,
	prepare,
	root,
	slug,
} from './setup.mjs';
import { CONTENDERS as contenders, benchWorkflow, contenderNode } from './workloads.mjs';

const version = VERSION;
const N = Number(process.env.BENCH_RATE_ITEMS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const HEADERS = process.env.BENCH_RATE_HEADERS;
if (HEADERS !== undefined && !['ietf', 'x'].includes(HEADERS))
	throw new Error(`BENCH_RATE_HEADERS is ietf or x, not ${HEADERS}`);
const outDir = OUT_DIR;
const apiKey = 'bench-rate-key-2b7e91';

const bench = await prepare({
	version,
	apiKey,
	prefix: 'bench-rate',
	sandboxArgs: limitedSandboxArgs(N, RATE, 'seconds', HEADERS),
});
const { sandboxUrl, control } = bench;

const workloads = [
	{
		name: 'create sequence',
		ours: { resource: 'sequence', operation: 'create', name: "={{ 'Sequence ' + $json.n }}" },
		http: {
			method: 'POST',
			url: `${sandboxUrl}/v1/sequences`,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: '={ "name": "Sequence {{ $json.n }}" }',
		},
	},
	{
		name: 'archive contact',
		ours: { resource: 'contact', operation: 'archive', contactId: '={{ $json.id }}' },
		http: { method: 'POST', url: `=${sandboxUrl}/v1/contacts/{{ $json.id }}/archive` },
	},
];

const workflowId = (contender, workload) => `rate-${contender.key}-${slug(workload.name)}`;

const workflow = (contender, workload) =>
	benchWorkflow(
		workflowId(contender, workload),
		N,
		"{ id: 'bulk-' + index, n: index }",
		contenderNode(contender, workload),
	);

await bench.importWorkflows(
	workloads.flatMap((workload) => contenders.map((contender) => workflow(contender, workload))),
);

async function run(contender, workload) {
	await control('reset', 'POST');
	const { succeeded, nodeFailed, seconds } = await bench.runContender(
		workflowId(contender, workload),
	);
	const service = await control('summary');
	return {
		workload: workload.name,
		contender: contender.label,
		key: contender.key,
		succeeded,
		nodeFailed,
		requests: service.requests,
		rejected: service.byStatus['429'] ?? 0,
		created: service.sequencesCreated,
		duplicates:
			workload.name === 'create sequence' ? service.duplicateNames : service.repeatedSuccesses,
		seconds,
		ofIdeal: seconds / (N / RATE),
	};
}

const rows = [];
for (const workload of workloads) {
	for (const contender of contenders) {
		const row = await run(contender, workload);
		rows.push(row);
		log(
			`${workload.name} · ${contender.label}: ${row.succeeded}/${N} succeeded, ${row.duplicates} duplicates, ${row.rejected} rejected, ${row.seconds.toFixed(1)} s (${row.ofIdeal.toFixed(2)} × ideal)`,
		);
	}
}

// ── report ──────────────────────────────────────────────────────────────────
const result = {
	date: new Date().toISOString(),
	n8n: version,
	node: process.version,
	machine: machine(),
	items: N,
	rate: RATE,
	burst: RATE,
	...(HEADERS ? { headers: HEADERS } : {}),
	idealSeconds: N / RATE,
	rows,
};
const tag = HEADERS ? `${slug(version)}-headers-${HEADERS}` : slug(version);
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, `rate-limit-${tag}.json`), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(path.join(outDir, `rate-limit-${tag}.svg`), rateLimitChart(result));
writeReport(outDir);
console.log(rateLimitTable(result));
log(
	`Wrote ${path.relative(root, path.join(outDir, 'results.md'))} and rate-limit-${tag}.json/.svg`,
);
await bench.close();
