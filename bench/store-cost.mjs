// `npm run bench:re-runs` (its second script), or `npm run bench:store`
// alone: what n8n's store for processed items costs this node, in real n8n
// (`n8n start`, regular mode) with the package installed from its tarball,
// each measurement side by side in one run:
// - Skip Items Done Before's cost: archive contact × N (BENCH_STORE_SIZES,
//   2000,10000,50000), started by a webhook, without the option, then with it
//   (Key = {{ $json.id }}, a workflow of its own per size and round, so its
//   store starts empty) a first and a second time, then without it again:
//   the node's time (bench/store-parts.mjs's Tally) of each with the option
//   ÷ the mean of the two without, and in the second execution how many items
//   the node skipped and how many the sandbox received again;
// - how long n8n's main process is held: during each of those runs a second,
//   trivial workflow's webhook is called one call at a time, every
//   BENCH_PROBE_MS (20) ms after the last answer, and n8n's /metrics gives
//   each second's longest event-loop delay (N8N_METRICS=true);
// - many small executions: BENCH_BURST_EVENTS (100) webhook calls at once,
//   each archiving one contact, against the sandbox limited to
//   BENCH_BURST_RATE (5) requests per second, BENCH_STORE_BURST_ROUNDS (3)
//   rounds: the time until the last answer ÷ the ideal N ÷ R; with
//   BENCH_BASELINE=<tarball>, an earlier build's in its own n8n, alternating.
// BENCH_STORE_PARTS=skip,burst selects the parts; BENCH_STORE_ROUNDS (1) the
// rounds of the first two. Writes bench/store-cost-<n8n>.json and adds it to
// bench/results.md.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

import { saveResult } from './report.mjs';
import { OUT_DIR, log, prepare, resultHeader, root, slug, VERSION } from './setup.mjs';
import {
	bigRunWorkflow,
	burstWorkflow,
	postJson,
	probeWorkflow,
	runBig,
	spread,
} from './store-parts.mjs';
import { storeCostTables } from './store-report.mjs';

const list = (name, fallback) => (process.env[name] ?? fallback).split(',').filter(Boolean);
const SIZES = list('BENCH_STORE_SIZES', '2000,10000,50000').map(Number);
const PARTS = list('BENCH_STORE_PARTS', 'skip,burst');
const ROUNDS = Number(process.env.BENCH_STORE_ROUNDS ?? 1);
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 20);
const EVENTS = Number(process.env.BENCH_BURST_EVENTS ?? 100);
const RATE = Number(process.env.BENCH_BURST_RATE ?? 5);
const BURST_ROUNDS = Number(process.env.BENCH_STORE_BURST_ROUNDS ?? 3);
const HOLD_RUNS = 5;
/** Before each one-item run: n8n ends what the run before left (its saves, a collection of its garbage). */
const HOLD_PAUSE_MS = 3000;
const apiKey = 'bench-store-key-7a31c8';
const load = () =>
	os
		.loadavg()
		.map((value) => value.toFixed(2))
		.join(', ');
const command = `${Object.entries(process.env)
	.filter(([name]) => /^BENCH_/.test(name))
	.map(([name, value]) => `${name}=${value.startsWith('/tmp/') ? path.basename(value) : value} `)
	.join('')}npm run bench:store`;

const plainId = 'store-plain';
const keyedId = (size, round) => `store-keyed-${size}-${round}`;
const rounds = Array.from({ length: ROUNDS }, (_, index) => index + 1);
const bigRuns = PARTS.includes('skip')
	? [
			bigRunWorkflow(plainId, plainId),
			...SIZES.flatMap((size) =>
				rounds.map((round) =>
					bigRunWorkflow(keyedId(size, round), keyedId(size, round), '={{ $json.id }}'),
				),
			),
			probeWorkflow('store-probe', 'store-probe'),
		]
	: [];
const withBurst = PARTS.includes('burst') ? [burstWorkflow('store-burst', 'store-burst')] : [];

/** An n8n with this checkout's build (or `tarball`), its workflows published, under `n8n start` with /metrics on. */
async function n8nWith(prefix, workflows, tarball) {
	const bench = await prepare({
		version: VERSION,
		apiKey,
		prefix,
		tarball,
		sandboxArgs: ['--bulk-contacts', String(Math.max(EVENTS, ...SIZES))],
	});
	bench.env.N8N_METRICS = 'true';
	await bench.importWorkflows(workflows);
	const ids = workflows.map((workflow) => workflow.id);
	// Only the probe's and the burst's webhooks are called to see n8n ready: a call starts a run.
	const server = await bench.startServer(
		ids,
		ids.filter((id) => /probe|burst/.test(id)),
	);
	return { bench, server };
}

const ours = await n8nWith('bench-store', [...bigRuns, ...withBurst]);
const baseline =
	PARTS.includes('burst') && process.env.BENCH_BASELINE
		? await n8nWith('bench-store-baseline', withBurst, process.env.BENCH_BASELINE)
		: undefined;

/** One big run of workflow `id` with `size` items (store-parts.mjs's bigRun), logged. */
async function bigRun(id, size) {
	const row = await runBig(ours, id, size, PROBE_MS, load);
	log(
		`${id} × ${size}: ${(row.ms / 1000).toFixed(1)} s, ${row.skipped} skipped, ${row.sent} sent; probe p50/p99/max ${[row.probe.p50, row.probe.p99, row.probe.max].map((ms) => ms?.toFixed(0)).join('/')} ms; event loop max ${row.loopMax.max?.toFixed(0)} ms; load ${row.load}`,
	);
	return row;
}

/**
 * How long one store call holds n8n's main process at a row of `entries`: HOLD_RUNS one-item
 * executions of workflow `id`, each HOLD_PAUSE_MS after the last, whose store calls read and
 * write the whole row while n8n does little else; n8n's longest event-loop delay during them
 * (the longest, and the median of the runs'), and the probe's longest answer.
 */
async function holdRuns(id, entries) {
	const runs = [];
	for (let run = 0; run < HOLD_RUNS; run++) {
		await new Promise((resolve) => setTimeout(resolve, HOLD_PAUSE_MS));
		runs.push(await runBig(ours, id, 1, PROBE_MS, load));
	}
	const loop = runs.map((run) => run.loopMax.max).filter(Number.isFinite);
	const row = {
		entries,
		loopMaxMs: Math.max(...loop),
		loopMedianMs: spread(loop).p50,
		probeMaxMs: Math.max(...runs.map((run) => run.probe.max).filter(Number.isFinite)),
		load: load(),
	};
	log(
		`${id} × 1 at a row of about ${entries}: event loop max ${row.loopMaxMs?.toFixed(0)} ms, median of runs ${row.loopMedianMs?.toFixed(0)} ms`,
	);
	return row;
}

/** N webhook calls at once, one archive each: time until the last answer, what the sandbox saw. */
async function burst({ bench, server }) {
	await bench.control('reset', 'POST');
	// The same archives each round, at a full row: without this, the memory would skip them as done.
	bench.fillMemory('store-burst');
	const logBefore = server.log().length;
	await bench.control('rate-limit', 'POST', { rate: RATE, burst: RATE, retryAfter: 'seconds' });
	const started = performance.now();
	const answers = await Promise.all(
		Array.from({ length: EVENTS }, (_, index) =>
			postJson(`${server.url}/webhook/store-burst`, { id: `bulk-${index}` }).then(
				({ status, json }) => status === 200 && json.id === `bulk-${index}`,
				() => false,
			),
		),
	);
	const seconds = (performance.now() - started) / 1000;
	const service = await bench.control('summary');
	await bench.control('rate-limit', 'POST', null);
	return {
		seconds,
		ofIdeal: seconds / (EVENTS / RATE),
		succeeded: answers.filter(Boolean).length,
		requests: service.requests,
		rejected: service.byStatus['429'] ?? 0,
		// The node's warning when n8n's store failed and it went on without a journal.
		storeFailed: server.log().slice(logBefore).split('store for processed items failed').length - 1,
		load: load(),
	};
}

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root })
	.toString()
	.trim();
const result = {
	...resultHeader(),
	command,
	package: process.env.BENCH_PACKAGE
		? path.basename(process.env.BENCH_PACKAGE)
		: `this checkout (${commit})`,
	probeMs: PROBE_MS,
	skip: [],
	burst: PARTS.includes('burst') && {
		events: EVENTS,
		rate: RATE,
		idealSeconds: EVENTS / RATE,
		ours: [],
		baseline: baseline && { label: path.basename(process.env.BENCH_BASELINE), runs: [] },
	},
};
/** Saved after each part and size: a run stopped half-way keeps what it measured. */
const save = () => saveResult(OUT_DIR, 'store-cost', { ...result, date: new Date().toISOString() });

if (PARTS.includes('burst')) {
	for (let round = 1; round <= BURST_ROUNDS; round++)
		for (const [key, target] of [
			['ours', ours],
			['baseline', baseline],
		]) {
			if (!target) continue;
			const row = await burst(target);
			(key === 'ours' ? result.burst.ours : result.burst.baseline.runs).push(row);
			log(
				`burst × ${EVENTS} at ${RATE}/s, round ${round}, ${key}: ${row.seconds.toFixed(1)} s (${row.ofIdeal.toFixed(2)} × ideal), ${row.succeeded} succeeded, ${row.rejected} rejected (429), store failed ${row.storeFailed}×; load ${row.load}`,
			);
		}
	save();
}

if (PARTS.includes('skip')) {
	await bigRun(plainId, Math.min(...SIZES)); // warm-up, not counted
	for (const size of SIZES)
		for (const round of rounds) {
			const without = await bigRun(plainId, size);
			const first = await bigRun(keyedId(size, round), size);
			const second = await bigRun(keyedId(size, round), size);
			// The promise itself: every confirmed key is skipped by the next execution, none sent again.
			if (second.skipped !== size || second.sent !== 0)
				throw new Error(
					`${keyedId(size, round)}: the second execution skipped ${second.skipped} of ${size} and sent ${second.sent} again`,
				);
			const withoutAgain = await bigRun(plainId, size);
			const plainMs = (without.ms + withoutAgain.ms) / 2;
			result.skip.push({
				size,
				round,
				without,
				first,
				second,
				withoutAgain,
				firstRatio: first.ms / plainMs,
				secondRatio: second.ms / plainMs,
				// Three entries a key: the keyed row is about full at 50,000; the plain one is empty.
				hold: {
					keyed: await holdRuns(keyedId(size, round), 3 * size),
					plain: await holdRuns(plainId, 0),
				},
			});
			save();
		}
}

console.log(storeCostTables(result));
log(
	`Wrote ${path.relative(root, path.join(OUT_DIR, 'results.md'))} and store-cost-${slug(VERSION)}.json`,
);
await ours.server.stop();
await baseline?.server.stop();
await ours.bench.close();
await baseline?.bench.close();
