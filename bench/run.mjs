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
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { renderChart } from './chart.mjs';
import { resultTable, writeReport } from './report.mjs';
import { DEFAULT_N8N_VERSION, PACKAGE_NAME as PACKAGE } from '../scripts/n8n/versions.mts';
import { resultDataOf } from '../scripts/n8n/cli.mts';
import { benchWorkflow, httpNode, log, machine, oursNode, prepare, root, slug } from './setup.mjs';

const version = process.env.BENCH_N8N ?? DEFAULT_N8N_VERSION;
const sizes = (process.env.BENCH_SIZES ?? '2000,10000').split(',').map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const outDir = path.resolve(root, process.env.BENCH_OUT ?? 'bench');
const apiKey = 'bench-key-6a0f3e';

// ── setup: n8n, the package, the sandbox ────────────────────────────────────
const bench = await prepare({ version, apiKey, prefix: 'bench', sandboxArgs: ['--bulk-contacts', String(Math.max(...sizes))] });
const { n8n, work, env, sandboxUrl, control } = bench;
/** The floor keeps as many requests in flight as this node does. */
const { MAX_IN_FLIGHT: CONCURRENCY } = await import(path.join(root, 'dist', 'nodes', 'OutreachSequences', 'describe', 'defaults.js'));

// ── the workloads, as each contender is configured ──────────────────────────
const SCHEDULES = [
	{ dayOffset: 0, hour: 9, minute: 30, delayInMinutes: 0, sequenceScripts: ['phone-1'] },
	{ dayOffset: 1, hour: 14, minute: 0, delayInMinutes: 15, sequenceScripts: ['email-1', 'txt-1'] },
	{ dayOffset: 3, hour: 10, minute: 5, delayInMinutes: 0, sequenceScripts: ['blast-1'] },
];
const TIMEZONE = 'Europe/Berlin';

const workloads = [
	{
		name: 'archive contact',
		ours: { resource: 'contact', operation: 'archive', contactId: '={{ $json.id }}' },
		http: { method: 'POST', url: `=${sandboxUrl}/v1/contacts/{{ $json.id }}/archive` },
		floor: (item) => ({ method: 'POST', url: `${sandboxUrl}/v1/contacts/${encodeURIComponent(item.id)}/archive` }),
		expectedId: (item) => item.id,
	},
	{
		name: 'get use case',
		ours: { resource: 'useCase', operation: 'get', useCaseId: '={{ $json.useCase }}' },
		http: { method: 'GET', url: `=${sandboxUrl}/v1/use_cases/{{ $json.useCase }}` },
		floor: (item) => ({ method: 'GET', url: `${sandboxUrl}/v1/use_cases/${encodeURIComponent(item.useCase)}` }),
		expectedId: (item) => item.useCase,
	},
	{
		name: 'create sequence',
		ours: {
			resource: 'sequence',
			operation: 'create',
			name: "={{ 'Sequence ' + $json.n }}",
			additionalFields: { timezone: TIMEZONE },
			schedules: { schedule: SCHEDULES.map((row) => ({ ...row, sequenceScripts: row.sequenceScripts.join(', ') })) },
		},
		http: {
			method: 'POST',
			url: `${sandboxUrl}/v1/sequences`,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: `={ "name": "Sequence {{ $json.n }}", "timezone": "${TIMEZONE}", "schedules": ${JSON.stringify(SCHEDULES)} }`,
		},
		floor: (item) => ({
			method: 'POST',
			url: `${sandboxUrl}/v1/sequences`,
			body: JSON.stringify({ name: `Sequence ${item.n}`, timezone: TIMEZONE, schedules: SCHEDULES }),
		}),
		expectedId: undefined,
	},
];

const inputItem = (index) => ({ id: `bulk-${index}`, useCase: index % 2 ? 'uc-2' : 'uc-1', n: index });

const workflow = (id, size, contender, workload) =>
	benchWorkflow(id, size, "{ id: 'bulk-' + index, useCase: index % 2 ? 'uc-2' : 'uc-1', n: index }", contender === 'ours' ? oursNode(workload.ours) : httpNode(workload.http));

const workflowId = (contender, workload, size) => `bench-${contender}-${slug(workload.name)}-${size}`;

log('Importing the benchmark workflows …');
await bench.importWorkflows(
	workloads.flatMap((workload) =>
		sizes.flatMap((size) => ['ours', 'http'].map((contender) => workflow(workflowId(contender, workload, size), size, contender, workload))),
	),
);

// ── measuring ───────────────────────────────────────────────────────────────
/** Checks that all `size` items succeeded, in order, and that the service saw `size` requests. */
async function verify(items, size, workload, label) {
	if (items.length !== size) throw new Error(`${label}: ${items.length} items, expected ${size}`);
	items.forEach((item, index) => {
		const json = item.json ?? item;
		const expected = workload.expectedId?.(inputItem(index));
		const ok = json && !json.error && (expected === undefined ? /^seq-/.test(json.id) : json.id === expected);
		if (!ok) throw new Error(`${label}: item ${index} did not succeed: ${JSON.stringify(json).slice(0, 300)}`);
	});
	const { requests } = await control('requests');
	if (requests.length !== size) throw new Error(`${label}: the service saw ${requests.length} requests, expected ${size}`);
}

/** n8n 1.x once printed a log line into the middle of 35 MB of run data; such a run is repeated, and counted. */
let repeatedRuns = 0;

async function runN8n(contender, workload, size, attempt = 1) {
	try {
		return await runN8nOnce(contender, workload, size);
	} catch (error) {
		if (!(error instanceof SyntaxError) || attempt >= 3) throw error;
		repeatedRuns++;
		log(`  (run data of ${contender} ${workload.name} × ${size} was not readable JSON: ${error.message}; running it again)`);
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
	return { msPerItem: task.executionTime / size, wallMs, peakRssMb: Number(readFileSync(rssFile, 'utf8').trim()) / 1024 };
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
				headers: { 'x-api-key': apiKey, accept: 'application/json', ...(request.body ? { 'content-type': 'application/json' } : {}) },
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

/** Where the n8n process spends its CPU time, from a V8 CPU profile, grouped by origin. */
function categorize(frame) {
	const { url, functionName } = frame;
	if (functionName === '(garbage collector)') return 'garbage collection';
	if (functionName === '(idle)') return 'idle (waiting for the network)';
	if (functionName === '(program)') return 'V8 / native';
	if (url.includes('isolated-vm') || /n8n-workflow\/dist\/.*(expression|isolated|vm-)/i.test(url)) return 'expression evaluation';
	if (url.includes(PACKAGE)) return 'this node';
	if (url.includes('/HttpRequest/')) return 'HTTP Request node';
	if (/\/axios\/|node:(_http|http|net|tls|dns|zlib|stream)|follow-redirects|form-data/.test(url)) return 'HTTP client and sockets';
	if (url.includes('/n8n-core/')) return 'n8n-core (execution, request helpers)';
	if (url.includes('/n8n-workflow/')) return 'n8n-workflow (parameters, data)';
	if (/typeorm|sqlite/.test(url)) return 'database';
	return 'other (n8n start-up, JSON, Node internals)';
}

async function profile(workload, size) {
	const script = execFileSync('readlink', ['-f', n8n], { encoding: 'utf8' }).trim();
	const lines = [`# CPU profile on n8n ${version}: ${workload.name} × ${size}`, '', 'Self time by origin, from `node --cpu-prof` of the whole `n8n execute` process (start-up included, which is the same for both).', ''];
	const totals = {};
	for (const contender of ['ours', 'http']) {
		await control('reset', 'POST');
		const dir = mkdtempSync(path.join(work, 'prof-'));
		execFileSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, script, 'execute', `--id=${workflowId(contender, workload, size)}`, '--rawOutput'], {
			env,
			stdio: ['ignore', 'ignore', 'ignore'],
			maxBuffer: 1 << 30,
		});
		const file = execFileSync('sh', ['-c', `ls ${dir}/*.cpuprofile | head -1`], { encoding: 'utf8' }).trim();
		const prof = JSON.parse(readFileSync(file, 'utf8'));
		const byId = new Map(prof.nodes.map((node) => [node.id, node]));
		const self = {};
		prof.samples.forEach((id, index) => {
			const category = categorize(byId.get(id).callFrame);
			self[category] = (self[category] ?? 0) + (prof.timeDeltas[index] ?? 0) / 1000;
		});
		totals[contender] = self;
		if (process.env.BENCH_PROFILE_DETAIL) {
			const detail = {};
			prof.samples.forEach((id, index) => {
				const frame = byId.get(id).callFrame;
				if (categorize(frame) !== process.env.BENCH_PROFILE_DETAIL) return;
				const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('node_modules/').pop()}:${frame.lineNumber}`;
				detail[key] = (detail[key] ?? 0) + (prof.timeDeltas[index] ?? 0) / 1000;
			});
			log(`${contender}: ${Object.entries(detail).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([key, ms]) => `\n  ${ms.toFixed(0)} ms ${key}`).join('')}`);
		}
	}
	const categories = [...new Set([...Object.keys(totals.ours), ...Object.keys(totals.http)])].sort((a, b) => (totals.http[b] ?? 0) - (totals.http[a] ?? 0));
	lines.push('| Origin | This node, ms | HTTP Request node, ms | Difference per item, ms |', '|---|---:|---:|---:|');
	for (const category of categories) {
		const ours = totals.ours[category] ?? 0;
		const http = totals.http[category] ?? 0;
		lines.push(`| ${category} | ${ours.toFixed(0)} | ${http.toFixed(0)} | ${((http - ours) / size).toFixed(3)} |`);
	}
	const text = `${lines.join('\n')}\n`;
	console.log(text);
	mkdirSync(outDir, { recursive: true });
	writeFileSync(path.join(outDir, `profile-${version.replace(/\W+/g, '-')}.md`), text);
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
					peakRssMb: list[0].peakRssMb === undefined ? undefined : median(list.map((sample) => sample.peakRssMb)),
					runs: list.map((sample) => Number(sample.msPerItem.toFixed(4))),
				},
			]),
		);
		rows.push({ workload: workload.name, size, ...summary });
	}
}

// Where the time goes: one CPU profile per contender (BENCH_PROFILE=0 skips it).
if (process.env.BENCH_PROFILE !== '0') await profile(workloads[0], sizes[0]);

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
