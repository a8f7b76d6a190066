// `npm run bench` (its last part), or `npm run bench:far` alone: a far service
// and a busy one, and Request Options › Batching › Limit, side by side in one
// run, in real n8n with the package installed from its tarball.
// - Far: the sandbox answers every request after 0, 200 and 500 ms
//   (BENCH_FAR_LATENCIES); N = 1,000 archives (BENCH_FAR_ITEMS), by this node
//   on default settings, with Items per Batch 256 at Limit Automatic and at
//   Limit Fixed, and by the HTTP Request node on default settings (all with
//   On Error = Continue, to count items). The bound for Fixed 256 at each
//   latency above 0: the larger of 0.8 × the HTTP Request node's time and
//   1.2 × (Fixed 256's own time at 0 ms + ⌈N ÷ 256⌉ × the latency).
// - Busy: the sandbox works on 16 requests at once, 100 ms each, the rest in
//   line (sandbox/capacity.mts); N archives on default settings, beside the
//   HTTP Request node; the bound: 1.25 × the service's own limit, N ÷ 16 × 100 ms.
// Each round runs every cell once (BENCH_ROUNDS, default 3); a ratio is taken
// within a round, and the table gives the median of the rounds. Times are the
// node's own executionTime. Writes bench/far-service-<n8n>.json and its
// section of bench/results.md (bench/far-report.mjs), and exits 1 when a
// bound did not hold.
import { farTable } from './far-report.mjs';
import { median } from './per-item.mjs';
import { saveResult } from './report.mjs';
import { log, OUT_DIR, prepare, resultHeader, VERSION } from './setup.mjs';
import { benchWorkflow, httpNode, oursNode } from './workloads.mjs';

const list = (name, fallback) => (process.env[name] ?? fallback).split(',').map(Number);
const LATENCIES = list('BENCH_FAR_LATENCIES', '0,200,500');
const N = Number(process.env.BENCH_FAR_ITEMS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BUSY = { concurrency: 16, serviceMs: 100 };
const FIXED = 256;
if (!LATENCIES.includes(0)) throw new Error('BENCH_FAR_LATENCIES needs 0: the bound uses it');

const bench = await prepare({
	version: VERSION,
	apiKey: 'bench-far-key-3c9e51',
	prefix: 'bench-far',
	sandboxArgs: ['--bulk-contacts', String(N)],
});
const { control } = bench;

const archive = { resource: 'contact', operation: 'archive', contactId: '={{ $json.id }}' };
const batching = (limit) => ({
	...archive,
	requestOptions: { batching: { batch: { batchSize: FIXED, limit, batchInterval: 0 } } },
});
/** The contenders, in the order each round runs them. */
const CONTENDERS = [
	{ key: 'ours', label: 'This node, default settings', node: oursNode(archive) },
	{
		key: 'automatic',
		label: `Items per Batch ${FIXED}, Automatic`,
		node: oursNode(batching('automatic')),
	},
	{ key: 'fixed', label: `Items per Batch ${FIXED}, Fixed`, node: oursNode(batching('fixed')) },
	{
		key: 'http',
		label: 'HTTP Request node, default settings',
		node: httpNode({
			method: 'POST',
			url: `=${bench.sandboxUrl}/v1/contacts/{{ $json.id }}/archive`,
		}),
	},
];
const BUSY_CONTENDERS = CONTENDERS.filter(({ key }) => key === 'ours' || key === 'http');

await bench.importWorkflows(
	CONTENDERS.map(({ key, node }) =>
		benchWorkflow(`far-${key}`, N, "{ id: 'bulk-' + index }", {
			...node,
			onError: 'continueRegularOutput',
		}),
	),
);

/** One run: the sandbox set as `service` says, every item checked; the node's time and the most requests at once. */
async function runOnce(contender, service) {
	await control('reset', 'POST');
	if (service.latencyMs > 0) await control('faults', 'POST', { delayMs: service.latencyMs });
	if (service.busy) await control('capacity', 'POST', BUSY);
	const { items, succeeded, nodeFailed, seconds } = await bench.runContender(
		`far-${contender.key}`,
	);
	const summary = await control('summary');
	if (nodeFailed || items.length !== N || succeeded !== N || summary.requests !== N)
		throw new Error(
			`${contender.key}: ${succeeded} of ${items.length} items succeeded (${N} expected), ${summary.requests} requests`,
		);
	return { seconds, maxInFlight: summary.maxInFlight };
}

const far = Object.fromEntries(
	LATENCIES.map((ms) => [ms, Object.fromEntries(CONTENDERS.map(({ key }) => [key, []]))]),
);
const busy = Object.fromEntries(BUSY_CONTENDERS.map(({ key }) => [key, []]));
await runOnce(CONTENDERS[0], { latencyMs: 0 }); // warm-up: the first n8n start migrates its database
for (let round = 1; round <= ROUNDS; round++) {
	for (const ms of LATENCIES)
		for (const contender of CONTENDERS) {
			const run = await runOnce(contender, { latencyMs: ms });
			far[ms][contender.key].push(run);
			log(
				`${ms} ms, round ${round}, ${contender.label}: ${run.seconds.toFixed(2)} s, ${run.maxInFlight} at once`,
			);
		}
	for (const contender of BUSY_CONTENDERS) {
		const run = await runOnce(contender, { busy: true });
		busy[contender.key].push(run);
		log(
			`busy, round ${round}, ${contender.label}: ${run.seconds.toFixed(2)} s, ${run.maxInFlight} at once`,
		);
	}
}

/** Per contender: the median time and most at once; `ratio(run, round)`, the median of a ratio taken round by round. */
const cells = (samples, ratio) =>
	Object.fromEntries(
		Object.entries(samples).map(([key, runs]) => [
			key,
			{
				seconds: median(runs.map((run) => run.seconds)),
				maxInFlight: median(runs.map((run) => run.maxInFlight)),
				runs: runs.map((run) => Number(run.seconds.toFixed(3))),
				...(ratio ? { ratio: median(runs.map(ratio)) } : {}),
			},
		]),
	);

const rounds = Math.ceil(N / FIXED);
const farRows = LATENCIES.map((ms) => {
	const samples = far[ms];
	const ofHttp = (run, round) => run.seconds / samples.http[round].seconds;
	const bound = (round) =>
		Math.max(
			0.8 * samples.http[round].seconds,
			1.2 * (far[0].fixed[round].seconds + (rounds * ms) / 1000),
		);
	const ofBound = samples.fixed.map((run, round) => run.seconds / bound(round));
	return {
		latencyMs: ms,
		...cells(samples, ofHttp),
		bound:
			ms > 0
				? {
						seconds: median(samples.fixed.map((_, round) => bound(round))),
						ratio: median(ofBound),
						held: median(ofBound) <= 1,
					}
				: undefined,
	};
});
const limitSeconds = (N / BUSY.concurrency) * (BUSY.serviceMs / 1000);
const busyRow = { ...BUSY, limitSeconds, ...cells(busy, (run) => run.seconds / limitSeconds) };
busyRow.held = busyRow.ours.ratio <= 1.25;

const result = {
	...resultHeader(),
	items: N,
	rounds: ROUNDS,
	fixed: FIXED,
	tarball: bench.tarballName,
	contenders: CONTENDERS.map(({ key, label }) => ({ key, label })),
	far: farRows,
	busy: busyRow,
};
saveResult(OUT_DIR, 'far-service', result);
console.log(farTable(result));
await bench.close();
const held = farRows.every((row) => !row.bound || row.bound.held) && busyRow.held;
if (!held) {
	log('A bound did not hold (the table says which).');
	process.exitCode = 1;
}
