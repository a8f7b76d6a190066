// `npm run bench`: this node against n8n's HTTP Request node and a raw-HTTP
// floor, in real n8n (installed into .cache/), with the package installed from
// its tarball as a community package, against the sandbox.
//
// For each workload and size, the contenders alternate (ours, HTTP Request,
// floor; again; again) and the median of the rounds is reported. Per item time
// is the node's own executionTime from the run data; the floor is Node's fetch
// with the same concurrency as this node. Every run must have N successes.
//
// Env: BENCH_N8N (default 2.41.1), BENCH_SIZES (default 2000,10000),
// BENCH_ROUNDS (default 3), BENCH_OUT (default bench/, where results go),
// BENCH_PROFILE=0 (skip the CPU profile of archive contact at the first size),
// BENCH_PROFILE_DETAIL=<origin> (also print that origin's top functions).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { renderChart } from './chart.mjs';
import { resultTable, writeReport } from './report.mjs';
import { DEFAULT_N8N_VERSION } from '../scripts/n8n/versions.mts';
import { resultDataOf } from '../scripts/n8n/cli.mts';
import { profile } from './profile.mjs';
import { log, machine, prepare, root, slug } from './setup.mjs';
import { benchWorkflow, benchWorkloads, httpNode, oursNode } from './workloads.mjs';

const version = process.env.BENCH_N8N ?? DEFAULT_N8N_VERSION;
const sizes = (process.env.BENCH_SIZES ?? '2000,10000').split(',').map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const outDir = path.resolve(root, process.env.BENCH_OUT ?? 'bench');
const apiKey = 'bench-key-6a0f3e';

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

const workflow = (id, size, contender, workload) =>
	benchWorkflow(
		id,
		size,
		"{ id: 'bulk-' + index, useCase: index % 2 ? 'uc-2' : 'uc-1', n: index }",
		contender === 'ours' ? oursNode(workload.ours) : httpNode(workload.http),
	);

const workflowId = (contender, workload, size) =>
	`bench-${contender}-${slug(workload.name)}-${size}`;

log('Importing the benchmark workflows …');
await bench.importWorkflows(
	workloads.flatMap((workload) =>
		sizes.flatMap((size) =>
			['ours', 'http'].map((contender) =>
				workflow(workflowId(contender, workload, size), size, contender, workload),
			),
		),
	),
);

// ── measuring ───────────────────────────────────────────────────────────────
/** Checks that all `size` items succeeded, in order, and that the service saw `size` requests. */
async function verify(items, size, workload, label) {
	if (items.length !== size) throw new Error(`${label}: ${items.length} items, expected ${size}`);
	items.forEach((item, index) => {
		const json = item.json ?? item;
		const expected = workload.expectedId?.(inputItem(index));
		const ok =
			json &&
			!json.error &&
			(expected === undefined ? /^seq-/.test(json.id) : json.id === expected);
		if (!ok)
			throw new Error(
				`${label}: item ${index} did not succeed: ${JSON.stringify(json).slice(0, 300)}`,
			);
	});
	const { requests } = await control('requests');
	if (requests.length !== size)
		throw new Error(`${label}: the service saw ${requests.length} requests, expected ${size}`);
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
	await verify(task.data.main[0], size, workload, id);
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

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// Warm-up: the first n8n start after an install migrates the database.
await runN8n('ours', workloads[1], sizes[0]);

const rows = [];
for (const workload of workloads) {
	for (const size of sizes) {
		const samples = { ours: [], http: [], floor: [] };
		for (let round = 1; round <= rounds; round++) {
			samples.ours.push(await runN8n('ours', workload, size));
			samples.http.push(await runN8n('http', workload, size));
			samples.floor.push(await runFloor(workload, size));
			log(
				`${workload.name} × ${size}, round ${round}: ours ${samples.ours.at(-1).msPerItem.toFixed(3)}, HTTP Request ${samples.http.at(-1).msPerItem.toFixed(3)}, floor ${samples.floor.at(-1).msPerItem.toFixed(3)} ms/item`,
			);
		}
		const summary = Object.fromEntries(
			Object.entries(samples).map(([name, list]) => [
				name,
				{
					msPerItem: median(list.map((sample) => sample.msPerItem)),
					wallMs: median(list.map((sample) => sample.wallMs)),
					peakRssMb:
						list[0].peakRssMb === undefined
							? undefined
							: median(list.map((sample) => sample.peakRssMb)),
					runs: list.map((sample) => Number(sample.msPerItem.toFixed(4))),
				},
			]),
		);
		rows.push({ workload: workload.name, size, ...summary });
	}
}

// Where the time goes: one CPU profile per contender (BENCH_PROFILE=0 skips it).
if (process.env.BENCH_PROFILE !== '0') {
	const [workload, size] = [workloads[0], sizes[0]];
	await profile({
		bench,
		version,
		outDir,
		workload,
		size,
		ids: { ours: workflowId('ours', workload, size), http: workflowId('http', workload, size) },
	});
}

// ── report ──────────────────────────────────────────────────────────────────
const tag = slug(version);
const result = {
	date: new Date().toISOString(),
	n8n: version,
	node: process.version,
	machine: machine(),
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
