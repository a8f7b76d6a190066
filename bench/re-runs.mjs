// `npm run bench` (fifth part), or `npm run bench:re-runs` alone: what the
// record (nodes/OutreachSequences/run/memory/record.ts) costs and what it
// saves, in one run, through real n8n with the package installed from its
// tarball:
// - a clean run's cost: run.mjs's create sequence workload, this node and the
//   HTTP Request node alternating, medians of ms/item, beside the first
//   table's figure for the same cell (bench/results-<n8n>.json), and with
//   BENCH_BASELINE=<tarball> an earlier build's in the same rounds;
// - a re-run: N creates, one answered 500 once before the service writes it,
//   this node and the HTTP Request node both with Retry On Fail (5 tries, 5 s
//   apart) and On Error = Stop: sequences created twice, requests, time;
// - the record of 10,000 confirmed creates, and of archives, at unit level
//   through record.ts's API as built in dist/: its size in bytes, its write
//   and read times, and a clean run's record work alone (record-cost.mjs).
// Writes bench/re-runs-<n8n>.json and adds it to bench/results.md.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { recordCost } from './record-cost.mjs';
import { reRunsTables, saveResult } from './report.mjs';
import { log, OUT_DIR, prepare, resultHeader, root, slug, VERSION } from './setup.mjs';
import {
	CONTENDERS,
	benchWorkflow,
	benchWorkloads,
	contenderNode,
	namedCreate,
} from './workloads.mjs';

const CLEAN_N = Number(process.env.BENCH_RERUN_CLEAN_ITEMS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const N = Number(process.env.BENCH_RERUN_ITEMS ?? 40);
/** The item whose create fails once, before the service writes it. */
const FAILING = Math.floor(N * 0.6);
const apiKey = 'bench-reruns-key-41f9d2';

const bench = await prepare({
	version: VERSION,
	apiKey,
	prefix: 'bench-reruns',
	sandboxArgs: ['--bulk-contacts', '1'],
});
const { sandboxUrl, control } = bench;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const createSequence = benchWorkloads(sandboxUrl).find(
	(workload) => workload.name === 'create sequence',
);
const reRunWorkload = namedCreate(sandboxUrl, 'Rerun');
const retrySettings = CONTENDERS.find((contender) => contender.key === 'retry').settings;
const clean = [
	{ key: 'ours', workload: createSequence },
	{ key: 'http', workload: createSequence },
];
// BENCH_BASELINE=<tarball>: an earlier build (one from before the record), run beside this checkout's in its own n8n user folder.
const baseline =
	process.env.BENCH_BASELINE &&
	(await prepare({
		version: VERSION,
		apiKey,
		prefix: 'bench-reruns-baseline',
		tarball: process.env.BENCH_BASELINE,
	}));
const reRun = [
	{
		key: 'ours',
		label: 'This node, Retry On Fail (5 tries, 5 s)',
		onError: 'stopWorkflow',
		settings: retrySettings,
	},
	{
		key: 'http',
		label: 'HTTP Request node, Retry On Fail (5 tries, 5 s)',
		onError: 'stopWorkflow',
		settings: retrySettings,
	},
];
const cleanId = (contender) => `reruns-clean-${contender.key}`;
const reRunId = (contender) => `reruns-retry-${contender.key}`;

await bench.importWorkflows([
	...clean.map((contender) =>
		benchWorkflow(
			cleanId(contender),
			CLEAN_N,
			"{ id: 'bulk-' + index, n: index }",
			contenderNode(contender, contender.workload),
		),
	),
	...reRun.map((contender) =>
		benchWorkflow(reRunId(contender), N, '{ n: index }', contenderNode(contender, reRunWorkload)),
	),
]);

// ── a clean run's cost ──────────────────────────────────────────────────────
if (baseline)
	await baseline.importWorkflows([
		benchWorkflow(
			cleanId(clean[0]),
			CLEAN_N,
			"{ id: 'bulk-' + index, n: index }",
			contenderNode(clean[0], createSequence),
		),
	]);

/** ms/item of one clean run of `key` (ours, http, or baseline: this node's workflow in the earlier build's n8n). */
async function cleanRun(key) {
	const target = key === 'baseline' ? baseline : bench;
	const id = cleanId(key === 'http' ? clean[1] : clean[0]);
	await target.control('reset', 'POST');
	// The same 2,000 creates each round, at a full row: without this, the memory would skip them as done.
	target.fillMemory(id);
	const { succeeded, seconds } = await target.runContender(id);
	const { requests } = await target.control('summary');
	if (succeeded !== CLEAN_N || requests !== CLEAN_N)
		throw new Error(
			`${key} ${id}: ${succeeded} succeeded, ${requests} requests, expected ${CLEAN_N}`,
		);
	return (seconds * 1000) / CLEAN_N;
}

const keys = baseline ? ['ours', 'baseline', 'http'] : ['ours', 'http'];
for (const key of keys.slice(0, 2)) await cleanRun(key); // warm-up, not counted
const samples = Object.fromEntries(keys.map((key) => [key, []]));
for (let round = 1; round <= ROUNDS; round++) {
	for (const key of keys) samples[key].push(await cleanRun(key));
	log(
		`clean create sequence × ${CLEAN_N}, round ${round}: ${keys.map((key) => `${key} ${samples[key].at(-1).toFixed(3)}`).join(', ')} ms/item`,
	);
}
const earlierFile = path.join(root, 'bench', `results-${slug(VERSION)}.json`);
const earlier = existsSync(earlierFile) ? JSON.parse(readFileSync(earlierFile, 'utf8')) : undefined;
const earlierRow = earlier?.rows.find(
	(row) => row.workload === 'create sequence' && row.size === CLEAN_N,
);
const cleanResult = {
	items: CLEAN_N,
	rounds: ROUNDS,
	ours: median(samples.ours),
	http: median(samples.http),
	baseline: baseline && {
		tarball: baseline.tarballName,
		label: path.basename(process.env.BENCH_BASELINE),
		ours: median(samples.baseline),
	},
	runs: samples,
	before: earlierRow && {
		label: `The first table (\`npm run bench\`, ${earlier.date}, ${earlier.machine})`,
		ours: earlierRow.ours.msPerItem,
		http: earlierRow.http.msPerItem,
	},
};

// ── a re-run: one create fails once before it is written ─────────────────────
const reRunRows = [];
for (const contender of reRun) {
	await control('reset', 'POST');
	await control('faults', 'POST', {
		method: 'POST',
		pathPrefix: '/v1/sequences',
		bodyContains: `Rerun ${FAILING}"`,
		status: 500,
		body: { message: 'gateway' },
		times: 1,
	});
	const { succeeded, nodeFailed, seconds } = await bench.runContender(reRunId(contender));
	const service = await control('summary');
	reRunRows.push({
		contender: contender.label,
		key: contender.key,
		succeeded,
		nodeFailed,
		duplicates: service.duplicateNames,
		requests: service.requests,
		seconds,
	});
	log(
		`re-run · ${contender.label}: ${succeeded}/${N} succeeded, ${service.duplicateNames} created twice, ${service.requests} requests, ${seconds.toFixed(2)} s`,
	);
}

// ── the record of 10,000 confirmed items, through record.ts's API ─────────
await control('reset', 'POST');
const recordResult = await recordCost(
	[createSequence, benchWorkloads(sandboxUrl)[0]],
	sandboxUrl,
	apiKey,
);

// ── report ──────────────────────────────────────────────────────────────────
const result = {
	...resultHeader(),
	clean: cleanResult,
	reRun: { items: N, failingItem: FAILING, rows: reRunRows },
	record: recordResult,
};
saveResult(OUT_DIR, 're-runs', result);
console.log(reRunsTables(result));
log(
	`Wrote ${path.relative(root, path.join(OUT_DIR, 'results.md'))} and re-runs-${slug(VERSION)}.json`,
);
await bench.close();
await baseline?.close();
