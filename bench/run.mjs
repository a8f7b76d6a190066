// `npm run bench`: this node against n8n's HTTP Request node, n8n's floor (a
// Set node evaluating this node's own expression per item, sending nothing)
// and a raw-HTTP floor, in real n8n (installed into .cache/), with the package
// installed from its tarball as a community package, against the sandbox.
//
// For each workload and size, the contenders alternate (ours, HTTP Request,
// n8n's floor, raw floor; again; again); the medians of the rounds and the
// ratios taken round by round are reported (bench/per-item.mjs). Per item time
// is the node's own executionTime from the run data; the raw floor is Node's
// fetch with the same concurrency as this node. Every run must have N successes;
// this node's, each linked to its input item, and never more than its bound in
// flight at the service (what npm test checks at 1,000 items, here at every size).
//
// Env: BENCH_N8N (default 2.41.1), BENCH_SIZES (default 2000,10000),
// BENCH_ROUNDS (default 3), BENCH_OUT (default bench/, where results go),
// BENCH_PROFILE=0 (skip the CPU profile of archive contact at the first size),
// BENCH_PROFILE_DETAIL=1 (also print each contender's top functions then).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { renderChart } from './chart.mjs';
import { writeReport } from './report.mjs';
import { PER_ITEM_CONTENDERS, resultTable, summarizeRounds } from './per-item.mjs';
import { DEFAULT_N8N_VERSION } from '../scripts/n8n/versions.mts';
import { resultDataOf } from '../scripts/n8n/cli.mts';
import { profile } from './profile.mjs';
import { log, machine, prepare, root, slug } from './setup.mjs';
import { benchWorkflow, benchWorkloads, httpNode, oursNode, setNode } from './workloads.mjs';

const version = process.env.BENCH_N8N ?? DEFAULT_N8N_VERSION;
const sizes = (process.env.BENCH_SIZES ?? '2000,10000').split(',').map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const outDir = path.resolve(root, process.env.BENCH_OUT ?? 'bench');
const apiKey = 'bench-key-6a0f3e';
/** The machine's load average (1, 5, 15 min) before the run: other work on it skews the times. */
const load = os
	.loadavg()
	.map((value) => value.toFixed(2))
	.join(', ');

// ── setup: n8n, the package, the sandbox ────────────────────────────────────
const bench = await prepare({
	version,
	apiKey,
	prefix: 'bench',
	sandboxArgs: ['--bulk-contacts', String(Math.max(...sizes))],
});
const { work, sandboxUrl, control } = bench;
/** The floor keeps as many requests in flight as this node does. */
const { MAX_IN_FLIGHT: CONCURRENCY } = await import(
	path.join(root, 'dist', 'nodes', 'OutreachSequences', 'describe', 'defaults.js')
);

// ── the workloads, as each contender is configured (bench/setup.mjs) ───────
const workloads = benchWorkloads(sandboxUrl);

const inputItem = (index) => ({
	id: `bulk-${index}`,
	useCase: index % 2 ? 'uc-2' : 'uc-1',
	n: index,
});

/** The contenders that run in n8n, each as a node for a workload. */
const NODES = {
	ours: (workload) => oursNode(workload.ours),
	http: (workload) => httpNode(workload.http),
	n8n: (workload) => setNode(workload.n8nFloor.expression),
};

const workflow = (id, size, contender, workload) =>
	benchWorkflow(
		id,
		size,
		"{ id: 'bulk-' + index, useCase: index % 2 ? 'uc-2' : 'uc-1', n: index }",
		NODES[contender](workload),
	);

const workflowId = (contender, workload, size) =>
	`bench-${contender}-${slug(workload.name)}-${size}`;

log('Importing the benchmark workflows …');
await bench.importWorkflows(
	workloads.flatMap((workload) =>
		sizes.flatMap((size) =>
			Object.keys(NODES).map((contender) =>
				workflow(workflowId(contender, workload, size), size, contender, workload),
			),
		),
	),
);

// ── measuring ───────────────────────────────────────────────────────────────
/**
 * Checks that all `size` items succeeded, in order, and that the service saw `size` requests;
 * n8n's floor (`n8nFloor`): that each item holds the expression's value, and that nothing was sent.
 */
async function verify(items, size, workload, label, n8nFloor = false) {
	if (items.length !== size) throw new Error(`${label}: ${items.length} items, expected ${size}`);
	items.forEach((item, index) => {
		const json = item.json ?? item;
		const expected = workload.expectedId?.(inputItem(index));
		const ok = n8nFloor
			? json?.value === workload.n8nFloor.value(inputItem(index))
			: json &&
				!json.error &&
				(expected === undefined ? /^seq-/.test(json.id) : json.id === expected);
		if (!ok)
			throw new Error(
				`${label}: item ${index} did not succeed: ${JSON.stringify(json).slice(0, 300)}`,
			);
	});
	const { requests, maxInFlight } = await control('requests');
	const sent = n8nFloor ? 0 : size;
	if (requests.length !== sent)
		throw new Error(`${label}: the service saw ${requests.length} requests, expected ${sent}`);
	return maxInFlight;
}

/** This node's items, each linked to its input item, and at most its bound in flight at the service. */
function verifyOurs(items, maxInFlight, label) {
	const unlinked = items.findIndex((item, index) => item.pairedItem?.item !== index);
	if (unlinked !== -1) throw new Error(`${label}: item ${unlinked} is not linked to its input`);
	if (maxInFlight > CONCURRENCY)
		throw new Error(`${label}: ${maxInFlight} requests in flight at once, past ${CONCURRENCY}`);
}

/** n8n 1.x once printed a log line into the middle of 35 MB of run data; such a run is repeated, and counted. */
let repeatedRuns = 0;

async function runN8n(contender, workload, size, attempt = 1) {
	try {
		return await runN8nOnce(contender, workload, size);
	} catch (error) {
		if (!(error instanceof SyntaxError) || attempt >= 3) throw error;
		repeatedRuns++;
		log(
			`  (run data of ${contender} ${workload.name} × ${size} was not readable JSON: ${error.message}; running it again)`,
		);
		return await runN8n(contender, workload, size, attempt + 1);
	}
}

async function runN8nOnce(contender, workload, size) {
	await control('reset', 'POST');
	const id = workflowId(contender, workload, size);
	const rssFile = path.join(work, 'rss.txt');
	const { stdout: output, wallMs } = await bench.execute(id, { peakRssFile: rssFile });
	const run = resultDataOf(output);
	if (run.error) throw new Error(`${id}: the run failed: ${run.error.message}`);
	const task = run.runData.Contender[0];
	const maxInFlight = await verify(task.data.main[0], size, workload, id, contender === 'n8n');
	if (contender === 'ours') verifyOurs(task.data.main[0], maxInFlight, id);
	return {
		msPerItem: task.executionTime / size,
		wallMs,
		peakRssMb: Number(readFileSync(rssFile, 'utf8').trim()) / 1024,
	};
}

async function runFloor(workload, size) {
	await control('reset', 'POST');
	const items = Array.from({ length: size }, (_, index) => inputItem(index));
	const results = new Array(size);
	let next = 0;
	const started = process.hrtime.bigint();
	async function worker() {
		while (next < size) {
			const index = next++;
			const request = workload.floor(items[index]);
			const response = await fetch(request.url, {
				method: request.method,
				headers: {
					'x-api-key': apiKey,
					accept: 'application/json',
					...(request.body ? { 'content-type': 'application/json' } : {}),
				},
				body: request.body,
			});
			results[index] = await response.json();
		}
	}
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	await verify(results, size, workload, `floor ${workload.name} ${size}`);
	return { msPerItem: ms / size, wallMs: ms, peakRssMb: undefined };
}

// Warm-up: the first n8n start after an install migrates the database.
await runN8n('ours', workloads[1], sizes[0]);

const rows = [];
for (const workload of workloads) {
	for (const size of sizes) {
		const samples = Object.fromEntries(PER_ITEM_CONTENDERS.map((name) => [name, []]));
		for (let round = 1; round <= rounds; round++) {
			for (const name of PER_ITEM_CONTENDERS)
				samples[name].push(
					name === 'floor' ? await runFloor(workload, size) : await runN8n(name, workload, size),
				);
			const [ours, http, n8n, floor] = PER_ITEM_CONTENDERS.map((name) =>
				samples[name].at(-1).msPerItem.toFixed(3),
			);
			log(
				`${workload.name} × ${size}, round ${round}: ours ${ours}, HTTP Request ${http}, n8n's floor ${n8n}, raw floor ${floor} ms/item`,
			);
		}
		const summary = summarizeRounds(samples);
		rows.push({ workload: workload.name, size, ...summary });
	}
}

// Where the time goes: one CPU profile per contender in n8n (BENCH_PROFILE=0 skips it).
if (process.env.BENCH_PROFILE !== '0') {
	const [workload, size] = [workloads[0], sizes[0]];
	await profile({
		bench,
		version,
		outDir,
		workload,
		size,
		ids: Object.fromEntries(
			Object.keys(NODES).map((contender) => [contender, workflowId(contender, workload, size)]),
		),
	});
}

// ── report ──────────────────────────────────────────────────────────────────
const tag = slug(version);
const result = {
	date: new Date().toISOString(),
	n8n: version,
	node: process.version,
	machine: machine(),
	load,
	rounds,
	concurrency: CONCURRENCY,
	tarball: bench.tarballName,
	tarballKb: bench.tarballKb,
	repeatedRuns,
	rows,
};
console.log(resultTable(result));
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, `results-${tag}.json`), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(path.join(outDir, `results-${tag}.svg`), renderChart(result));
writeReport(outDir);
log(`Wrote ${path.relative(root, path.join(outDir, 'results.md'))} and results-${tag}.json/.svg`);
await bench.close();
