// `npm run bench` (fourth part), or `npm run bench:faults` alone: a service
// that fails, side by side in one run, through real n8n with the package
// installed from its tarball. N creates, each contender in turn (the
// contenders of bench/setup.mjs: this node and the HTTP Request node on
// default settings, the HTTP Request node with Retry On Fail), every one with
// Timeout 1 s (no effect where the service answers at once), in scenarios:
// - clean (the baseline), and clean under a rate limit of R requests per second;
// - a 502 on every k-th request that passes the rate limit;
// - all timeouts: the service creates the sequence and answers after 2 s;
// - a dead service: it accepts each request and never answers.
// Reported per run: items that came out as successes, the requests the
// sandbox saw, sequences created more than once under the same name, and the
// node's time ÷ the same contender's clean time. Writes bench/faults-<n8n>.json
// and adds it to bench/results.md.
import path from 'node:path';

import { faultsTable, saveResult } from './report.mjs';
import { log, OUT_DIR, prepare, resultHeader, root, slug, VERSION } from './setup.mjs';
import { CONTENDERS, benchWorkflow, contenderNode, namedCreate } from './workloads.mjs';

const N = Number(process.env.BENCH_FAULT_ITEMS ?? 40);
const RATE = Number(process.env.BENCH_FAULT_RATE ?? 10);
const EVERY = Number(process.env.BENCH_FAULT_EVERY ?? 5);
const TIMEOUT_MS = 1000;
const LATE_MS = 2000;
const apiKey = 'bench-faults-key-8d21c7';

const bench = await prepare({ version: VERSION, apiKey, prefix: 'bench-faults' });
const { sandboxUrl, control } = bench;

const workload = namedCreate(sandboxUrl, 'Fault', {
	ours: { requestOptions: { timeout: TIMEOUT_MS } },
	http: { options: { timeout: TIMEOUT_MS } },
});
const rateLimit = { rate: RATE, burst: RATE, retryAfter: 'seconds' };
const creates = { method: 'POST', pathPrefix: '/v1/sequences' };
const scenarios = [
	{ key: 'clean', name: 'Clean' },
	{ key: 'cleanLimited', name: `Clean, ${RATE} requests/s`, rateLimit },
	{
		key: 'badGateway',
		name: `A 502 on every ${EVERY}th request, ${RATE} requests/s`,
		rateLimit,
		fault: { ...creates, every: EVERY, status: 502, body: '<html>502 Bad Gateway</html>' },
	},
	{
		key: 'timeouts',
		name: `All timeouts: created, answered after ${LATE_MS / 1000} s`,
		fault: { ...creates, afterWrite: true, delayMs: LATE_MS, status: 201, body: {} },
	},
	{
		key: 'dead',
		name: 'Dead service: accepts, never answers',
		fault: { ...creates, delayMs: 3_600_000 },
	},
];

const workflowId = (contender) => `faults-${contender.key}`;
await bench.importWorkflows(
	CONTENDERS.map((contender) =>
		benchWorkflow(workflowId(contender), N, '{ n: index }', contenderNode(contender, workload)),
	),
);

async function run(scenario, contender) {
	await control('reset', 'POST');
	if (scenario.rateLimit) await control('rate-limit', 'POST', scenario.rateLimit);
	if (scenario.fault) await control('faults', 'POST', scenario.fault);
	const { succeeded, nodeFailed, seconds } = await bench.runContender(workflowId(contender));
	const service = await control('summary');
	return {
		scenario: scenario.key,
		scenarioName: scenario.name,
		contender: contender.label,
		key: contender.key,
		succeeded,
		nodeFailed,
		requests: service.requests,
		byStatus: service.byStatus,
		created: service.sequencesCreated,
		duplicates: service.duplicateNames,
		seconds,
	};
}

await run(scenarios[0], CONTENDERS[0]); // warm-up, not counted
const rows = [];
for (const scenario of scenarios) {
	for (const contender of CONTENDERS) {
		const row = await run(scenario, contender);
		const clean = rows.find(
			(earlier) => earlier.scenario === 'clean' && earlier.key === contender.key,
		);
		row.ofClean = clean && row.seconds / clean.seconds;
		rows.push(row);
		log(
			`${scenario.name} · ${contender.label}: ${row.succeeded}/${N} succeeded, ${row.requests} requests, ${row.duplicates} duplicates, ${row.seconds.toFixed(2)} s`,
		);
	}
}

// ── report ──────────────────────────────────────────────────────────────────
const result = {
	...resultHeader(),
	items: N,
	rate: RATE,
	every: EVERY,
	timeoutMs: TIMEOUT_MS,
	lateMs: LATE_MS,
	rows,
};
saveResult(OUT_DIR, 'faults', result);
console.log(faultsTable(result));
log(
	`Wrote ${path.relative(root, path.join(OUT_DIR, 'results.md'))} and faults-${slug(VERSION)}.json`,
);
await bench.close();
