// `npm run bench` (its last part), or `npm run bench:latency` alone: how fast
// the node runs, and how many requests it keeps in flight, when the service is
// far away or busy (issue 44). Each contender in turn, in one run, in real n8n:
// - the latency sweep: the sandbox delays every answer 0, 50, 200 and 500 ms
//   (BENCH_LATENCIES), archives and creates, N = 1,000 and 10,000
//   (BENCH_LATENCY_SIZES);
// - capacity: the sandbox works on C requests at once, 100 ms each
//   (BENCH_CAPACITIES, default 4,16,64; BENCH_SERVICE_MS), the rest waiting in
//   line (sandbox/capacity.mts); archives, N = 100 × C, so that the service's
//   own limit, N ÷ C × the service time, is 10 s.
// Contenders: this node and n8n's HTTP Request node on default settings (On
// Error = Continue, to count items), and with BENCH_BASELINE=<tarball> this
// node as another build (the build before a change), in an n8n user folder and
// sandbox of its own. Per run: the node's own executionTime, the most requests
// the sandbox had at once, and the p95 of the time requests waited in line.
// Ratios are taken round by round (BENCH_ROUNDS, default 3; BENCH_ROUNDS_LARGE,
// default 1, for sizes over 2,000), each against this node's own run at 0 ms in
// the same round. A full run takes about an hour.
// Writes bench/latency-<n8n>.json and .svg, and adds them to bench/results.md.
import path from 'node:path';
import { writeFileSync } from 'node:fs';

import { median } from './per-item.mjs';
import { latencyChart, latencyTable } from './latency-report.mjs';
import { saveResult } from './report.mjs';
import { OUT_DIR, VERSION, log, prepare, resultHeader, slug } from './setup.mjs';
import { benchWorkflow, contenderNode, CONTENDERS, namedCreate } from './workloads.mjs';

const list = (name, fallback) => (process.env[name] ?? fallback).split(',').map(Number);
const LATENCIES = list('BENCH_LATENCIES', '0,50,200,500');
const SIZES = list('BENCH_LATENCY_SIZES', '1000,10000');
const CAPACITIES = list('BENCH_CAPACITIES', '4,16,64');
const SERVICE_MS = Number(process.env.BENCH_SERVICE_MS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Rounds for sizes over 2,000 (BENCH_ROUNDS_LARGE, default 1): the earlier build takes minutes a run there. */
const roundsOf = (size) => (size > 2000 ? Number(process.env.BENCH_ROUNDS_LARGE ?? 1) : ROUNDS);
const apiKey = 'bench-latency-key-7d21c4';
const capacityItems = (concurrency) => 100 * concurrency;
if (!LATENCIES.includes(0))
	throw new Error('BENCH_LATENCIES needs 0: each ratio is against the 0 ms run');
const most = Math.max(...SIZES, ...CAPACITIES.map(capacityItems));

const [ours, http] = CONTENDERS;
const archive = (sandboxUrl) => ({
	name: 'archive contact',
	ours: { resource: 'contact', operation: 'archive', contactId: '={{ $json.id }}' },
	http: { method: 'POST', url: `=${sandboxUrl}/v1/contacts/{{ $json.id }}/archive` },
});
const workloadsOf = (sandboxUrl) => [archive(sandboxUrl), namedCreate(sandboxUrl, 'Far')];

/** A bench (n8n with a build of the package, and its sandbox) with every workflow of this benchmark imported. */
async function setUp(prefix, tarball) {
	const bench = await prepare({
		version: VERSION,
		apiKey,
		prefix,
		tarball,
		sandboxArgs: ['--bulk-contacts', String(most)],
	});
	const sizes = [...new Set([...SIZES, ...CAPACITIES.map(capacityItems)])];
	await bench.importWorkflows(
		workloadsOf(bench.sandboxUrl).flatMap((workload) =>
			[ours, http].flatMap((contender) =>
				sizes.map((size) =>
					benchWorkflow(
						`lat-${contender.key}-${slug(workload.name)}-${size}`,
						size,
						"{ id: 'bulk-' + index, n: index }",
						contenderNode(contender, workload),
					),
				),
			),
		),
	);
	return bench;
}

const benches = { ours: await setUp('bench-latency') };
if (process.env.BENCH_BASELINE)
	benches.before = await setUp('bench-latency-before', process.env.BENCH_BASELINE);
/** Who runs, and on which bench: this build, the earlier one, and the HTTP Request node. */
const runners = [
	{ key: 'ours', bench: benches.ours, node: ours },
	...(benches.before ? [{ key: 'before', bench: benches.before, node: ours }] : []),
	{ key: 'http', bench: benches.ours, node: http },
];

/** One run of `workload` (by its name): the sandbox set as `service` says, the workflow run, every item checked. */
async function runOnce(runner, workload, size, service) {
	const { bench } = runner;
	await bench.control('reset', 'POST');
	if (service.latencyMs > 0) await bench.control('faults', 'POST', { delayMs: service.latencyMs });
	if (service.concurrency)
		await bench.control('capacity', 'POST', {
			concurrency: service.concurrency,
			serviceMs: SERVICE_MS,
		});
	const id = `lat-${runner.node.key}-${slug(workload.name)}-${size}`;
	const { items, succeeded, nodeFailed, seconds } = await bench.runContender(id);
	const summary = await bench.control('summary');
	if (nodeFailed || items.length !== size || succeeded !== size || summary.requests !== size)
		throw new Error(
			`${runner.key} ${id}: ${succeeded} of ${items.length} items succeeded (${size} expected), ${summary.requests} requests`,
		);
	return {
		seconds,
		maxInFlight: summary.maxInFlight,
		lineP95Ms: summary.timeInLine?.p95 ?? 0,
	};
}

/** Each runner's rounds of one cell, and the median of each figure. */
function cellOf(samples, ideal) {
	return Object.fromEntries(
		Object.entries(samples).map(([key, runs]) => {
			const ofIdeal = runs.map((run, round) => run.seconds / ideal(round));
			return [
				key,
				{
					seconds: median(runs.map((run) => run.seconds)),
					ofIdeal: median(ofIdeal),
					ofIdealRange: [Math.min(...ofIdeal), Math.max(...ofIdeal)],
					ofHttp:
						key === 'http'
							? undefined
							: median(runs.map((run, round) => run.seconds / samples.http[round].seconds)),
					maxInFlight: median(runs.map((run) => run.maxInFlight)),
					lineP95Ms: median(runs.map((run) => run.lineP95Ms)),
					runs: runs.map((run) => Number(run.seconds.toFixed(3))),
				},
			];
		}),
	);
}

// Warm-up: the first n8n start after an install migrates the database.
for (const runner of runners) await runOnce(runner, archive(''), SIZES[0], { latencyMs: 0 });

const latency = [];
for (const workload of workloadsOf(benches.ours.sandboxUrl)) {
	for (const size of SIZES) {
		const samples = Object.fromEntries(
			LATENCIES.map((ms) => [ms, Object.fromEntries(runners.map(({ key }) => [key, []]))]),
		);
		for (let round = 0; round < roundsOf(size); round++) {
			for (const ms of LATENCIES)
				for (const runner of runners) {
					const run = await runOnce(runner, workload, size, { latencyMs: ms });
					samples[ms][runner.key].push(run);
					log(
						`${workload.name} × ${size}, ${ms} ms, round ${round + 1}, ${runner.key}: ${run.seconds.toFixed(2)} s, ${run.maxInFlight} at once`,
					);
				}
		}
		for (const ms of LATENCIES) {
			// The bound of issue 44: this node's own time at 0 ms in the same round, plus one round trip.
			const ideal = (round) => samples[0].ours[round].seconds + ms / 1000;
			latency.push({ workload: workload.name, size, latencyMs: ms, ...cellOf(samples[ms], ideal) });
		}
	}
}

const capacity = [];
for (const concurrency of CAPACITIES) {
	const size = capacityItems(concurrency);
	const samples = Object.fromEntries(runners.map(({ key }) => [key, []]));
	for (let round = 0; round < ROUNDS; round++)
		for (const runner of runners) {
			const run = await runOnce(runner, archive(''), size, { concurrency });
			samples[runner.key].push(run);
			log(
				`capacity ${concurrency} × ${SERVICE_MS} ms, ${size} archives, round ${round + 1}, ${runner.key}: ${run.seconds.toFixed(2)} s, ${run.maxInFlight} at once, p95 in line ${run.lineP95Ms} ms`,
			);
		}
	const ideal = () => (size / concurrency) * (SERVICE_MS / 1000);
	capacity.push({ concurrency, serviceMs: SERVICE_MS, size, ...cellOf(samples, ideal) });
}

const result = {
	...resultHeader(),
	rounds: ROUNDS,
	roundsLarge: roundsOf(Infinity),
	contenders: runners.map(({ key }) => key),
	tarballs: Object.fromEntries(
		Object.entries(benches).map(([key, bench]) => [key, bench.tarballName]),
	),
	latency,
	capacity,
};
saveResult(OUT_DIR, 'latency', result);
writeFileSync(path.join(OUT_DIR, `latency-${slug(VERSION)}.svg`), latencyChart(result));
console.log(latencyTable(result));
for (const bench of Object.values(benches)) await bench.close();
