// bench/results.md from every results-<n8n version>.json (and profile-*.md)
// in the output folder: the machine, the versions, the date, the tables.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { farSection } from './far-report.mjs';
import { resultSection } from './per-item.mjs';
import { storeCostSection } from './store-report.mjs';

const fixed = (value, digits = 2) =>
	value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);

const count = (value) => value.toLocaleString('en-US');

/** The rate-limited benchmark's table: per workload and contender, what got through and at what cost. */
export function rateLimitTable(result) {
	const pct = (part) => `${((100 * part) / result.items).toFixed(1)}%`;
	return [
		'| Workload | Contender | Items succeeded | Duplicates | Requests rejected (429) | Requests in all | Time, s | Time ÷ ideal |',
		'|---|---|---:|---:|---:|---:|---:|---:|',
		...result.rows.map(
			(row) =>
				`| ${row.workload} | ${row.contender} | ${count(row.succeeded)} (${pct(row.succeeded)})${row.nodeFailed ? ', then the node failed' : ''} | ${count(row.duplicates)} | ${count(row.rejected)} (${pct(row.rejected)}) | ${count(row.requests)} | ${fixed(row.seconds, 1)} | ${row.key === 'ours' ? `**${fixed(row.ofIdeal)}×**` : `${fixed(row.ofIdeal)}×`} |`,
		),
	].join('\n');
}

function rateLimitSection(result) {
	const tag =
		result.n8n.replace(/\W+/g, '-') + (result.headers ? `-headers-${result.headers}` : '');
	const headers = result.headers
		? ` Every answer carries its rate-limit headers (\`BENCH_RATE_HEADERS=${result.headers}\`).`
		: '';
	return `## Rate-limited, n8n ${result.n8n}${result.headers ? `, with rate-limit headers (${result.headers})` : ''}

Written by \`bench/rate-limit.mjs\` (also part of \`npm run bench\`). The sandbox allows ${result.rate} requests per second (a token bucket with a burst of ${result.burst}) and answers 429 with \`Retry-After\` in seconds beyond that.${headers} ${count(result.items)} items run through \`n8n execute\`, each contender in turn in one run. The ideal time is N ÷ R = ${result.idealSeconds} s. Contenders: this node on default settings; the HTTP Request node on default settings; the HTTP Request node with Settings › Retry On Fail (5 tries, 5 s apart), which acts only with On Error = Stop, so that is how it runs (the others run with On Error = Continue, to count items). *Time* is the node's own \`executionTime\`, waits and tries included. *Duplicates*: for creates, sequences the service created more than once under the same name; for archives, the same archive carried out more than once.

- Date: ${result.date}
- Machine: ${result.machine}; Node.js ${result.node}

![Rate-limited: items succeeded and time ÷ ideal on n8n ${result.n8n}](rate-limit-${tag}.svg)

${rateLimitTable(result)}
`;
}

/** The burst benchmark's table: per contender, what got through a burst of executions and at what cost. */
export function burstTable(result) {
	const pct = (part, whole) => `${((100 * part) / whole).toFixed(1)}%`;
	return [
		'| Contender | Executions succeeded | Duplicates | Requests rejected (429) | Requests in all | Time, s | Time ÷ ideal |',
		'|---|---:|---:|---:|---:|---:|---:|',
		...result.rows.map(
			(row) =>
				`| ${row.contender} | ${count(row.succeeded)} (${pct(row.succeeded, result.events)}) | ${count(row.duplicates)} | ${count(row.rejected)} (${pct(row.rejected, result.events)} of the events) | ${count(row.requests)} | ${fixed(row.seconds, 1)} | ${row.key === 'ours' ? `**${fixed(row.ofIdeal)}×**` : `${fixed(row.ofIdeal)}×`} |`,
		),
	].join('\n');
}

function burstSection(result) {
	return `## A burst of executions, n8n ${result.n8n}

Written by \`bench/burst.mjs\` (also part of \`npm run bench\`). ${count(result.events)} webhook calls arrive at once at a published workflow in \`n8n start\` (regular mode). Each is its own execution, and each archives one contact. The sandbox allows ${result.rate} requests per second (burst ${result.rate}) and answers 429 with \`Retry-After\` (${result.retryAfter}) beyond that. The contenders run one after another in one run. The ideal time is N ÷ R = ${result.idealSeconds} s. *Executions succeeded*: the webhook answered with the archived contact. *Duplicates*: the same archive carried out more than once. *Time*: until the last execution answered. Package: ${result.package}.

- Date: ${result.date}
- Machine: ${result.machine}; Node.js ${result.node}

${burstTable(result)}
`;
}

/** "45 (9 × 429, 7 × 502, 3 no answer)": the requests the service saw, and those not answered with a 2xx. */
function requestsCell(row) {
	const failed = Object.entries(row.byStatus)
		.filter(([status]) => !/^2/.test(status))
		.map(([status, times]) =>
			status === 'undefined' ? `${count(times)} no answer` : `${count(times)} × ${status}`,
		);
	return `${count(row.requests)}${failed.length ? ` (${failed.join(', ')})` : ''}`;
}

/** The faults benchmark's table: per scenario and contender, what got through, what was sent, and at what cost. */
export function faultsTable(result) {
	return [
		'| Scenario | Contender | Items succeeded | Requests sent | Duplicates | Time, s | Time ÷ clean |',
		'|---|---|---:|---:|---:|---:|---:|',
		...result.rows.map(
			(row) =>
				`| ${row.scenarioName} | ${row.contender} | ${count(row.succeeded)} of ${count(result.items)}${row.nodeFailed ? ', then the node failed' : ''} | ${requestsCell(row)} | ${count(row.duplicates)} | ${fixed(row.seconds)} | ${row.ofClean === undefined ? '–' : `${fixed(row.ofClean, 1)}×`} |`,
		),
	].join('\n');
}

function faultsSection(result) {
	return `## Faults, n8n ${result.n8n}

Written by \`bench/faults.mjs\` (\`npm run bench:faults\`, also part of \`npm run bench\`). ${count(result.items)} creates run through \`n8n execute\`, the contenders one after another in one run: this node and the HTTP Request node on default settings (On Error = Continue, to count items), and the HTTP Request node with Retry On Fail (5 tries, 5 s apart; On Error = Stop, the only mode where it acts). Both nodes have Timeout ${result.timeoutMs / 1000} s in every scenario; it changes nothing where the service answers at once. Scenarios: a clean run, and one under a rate limit of ${result.rate} requests per second (burst ${result.rate}, 429 with \`Retry-After\` in seconds), the baselines; a 502 (an HTML body) on every ${result.every}th create that passes that rate limit; all timeouts, where the service creates the sequence and answers after ${result.lateMs / 1000} s; a dead service, which accepts every connection and never answers. *Requests sent*: what the sandbox received, with those not answered 2xx by status. *Duplicates*: sequences created more than once under the same name. *Time*: the node's own \`executionTime\`, tries and waits included. *Time ÷ clean*: ÷ the same contender's clean run (the first scenario) in this run; the rate-limited clean run shows what the limit alone costs. A 502 is an answer whose outcome is unknown (the service may have acted), so this node does not send a create again after one ([docs/errors.md](../docs/errors.md)); the HTTP Request node with Retry On Fail sends every item again, each try.

- Date: ${result.date}
- Machine: ${result.machine}; Node.js ${result.node}

${faultsTable(result)}
`;
}

/** The re-runs benchmark's tables: a clean run's cost beside the earlier figure, the re-run, the record's size. */
export function reRunsTables(result) {
	const { clean, reRun, record } = result;
	return [
		`| Clean run, create sequence × ${count(clean.items)} | This node, ms/item | HTTP Request, ms/item | This node ÷ HTTP Request |`,
		'|---|---:|---:|---:|',
		`| This run (medians of ${clean.rounds} rounds, alternating) | ${fixed(clean.ours, 3)} | ${fixed(clean.http, 3)} | **${fixed(clean.ours / clean.http)}×** |`,
		...(clean.baseline
			? [
					`| The earlier build ${clean.baseline.label}, in this run | ${fixed(clean.baseline.ours, 3)} | ${fixed(clean.http, 3)} | ${fixed(clean.baseline.ours / clean.http)}× |`,
				]
			: []),
		...(clean.before
			? [
					`| ${clean.before.label} | ${fixed(clean.before.ours, 3)} | ${fixed(clean.before.http, 3)} | ${fixed(clean.before.ours / clean.before.http)}× |`,
				]
			: []),
		'',
		`Per-round ms/item, in run order: this node ${clean.runs.ours.map((value) => fixed(value, 3)).join(', ')}; ${clean.baseline ? `the earlier build ${clean.runs.baseline.map((value) => fixed(value, 3)).join(', ')}; ` : ''}HTTP Request ${clean.runs.http.map((value) => fixed(value, 3)).join(', ')}.${clean.baseline ? ` This checkout ÷ the earlier build: **${fixed(clean.ours / clean.baseline.ours)}×** (medians).` : ''}`,
		'',
		'| Re-run contender | Items succeeded | Sequences created twice | Requests sent | Time, s |',
		'|---|---:|---:|---:|---:|',
		...reRun.rows.map(
			(row) =>
				`| ${row.contender} | ${count(row.succeeded)} of ${count(reRun.items)}${row.nodeFailed ? ', then the node failed' : ''} | ${count(row.duplicates)} | ${count(row.requests)} | ${fixed(row.seconds)} |`,
		),
		'',
		`| The record of ${count(record.items)} confirmed items | ${record.workloads.map((figures) => figures.workload).join(' | ')} |`,
		`|---|${record.workloads.map(() => '---:').join('|')}|`,
		...[
			["One answer (the sandbox's)", (figures) => `${count(figures.answerBytes)} bytes`],
			[
				'Size (JSON, as n8n saves it with the execution)',
				(figures) => `${count(figures.bytes)} bytes (${fixed(figures.bytes / 2 ** 20)} MiB)`,
			],
			[
				`Answers kept / kept as confirmed without their text (past the ${fixed(record.capBytes / 2 ** 20, 0)} MiB bound)`,
				(figures) => `${count(figures.answersKept)} / ${count(figures.answersDropped)}`,
			],
			[
				`Write time, \`keep()\` (median of ${record.rounds})`,
				(figures) => `${fixed(figures.writeMs, 1)} ms`,
			],
			[
				`Read time, \`earlierTry()\` for every item (median of ${record.rounds})`,
				(figures) => `${fixed(figures.readMs, 1)} ms`,
			],
		].map(([label, cell]) => `| ${label} | ${record.workloads.map(cell).join(' | ')} |`),
		'',
		`A clean run's record work alone (open it, find it empty, drop it): ${fixed(record.cleanRunMicros)} µs per run (median of ${record.rounds} × 1,000).`,
	].join('\n');
}

function reRunsSection(result) {
	return `## Re-runs, n8n ${result.n8n}

Written by \`bench/re-runs.mjs\` (\`npm run bench:re-runs\`, also part of \`npm run bench\`). Three measurements, in one run:
- **A clean run's cost.** The create sequence workload of the first table, ${count(result.clean.items)} items, this node and the HTTP Request node alternating, ${result.clean.rounds} rounds, medians of the node's \`executionTime\` ÷ N. Before each run the node's row in n8n's store is set to 150,000 marks of other items (\`BENCH_ROW_ENTRIES\`): a full row, as on a busy workflow, and none of the run's items done before. ${result.clean.baseline ? `Beside them, in the same rounds, an earlier build (${result.clean.baseline.label}, installed in an n8n user folder of its own, \`BENCH_BASELINE\`), at the same full row. ` : ''}Its cost would show as a change in *this node ÷ HTTP Request* (the HTTP Request node did not change) against the first table's figure for the same cell, from an earlier run (its date and machine are in the row); the line under the record's table is that work alone, per run.
- **A re-run.** ${count(result.reRun.items)} creates; the create of item ${result.reRun.failingItem + 1} is answered 500 once, before the service writes it. Both nodes have Retry On Fail (5 tries, 5 s apart) with On Error = Stop, so n8n runs the node again after the failure. *Time*: the node's own \`executionTime\`, tries and the wait between them included.
- **The record's size and write time**, at unit level through \`run/memory/record.ts\`'s API (\`ExecutionRecord.keep\` and \`earlierTry\`, built in \`dist/\`), in the benchmark process: ${count(result.record.items)} items, each confirmed with the sandbox's own answer, for the create sequence workload above and for archive contact; size is the JSON n8n saves with the execution.

- Date: ${result.date}
- Machine: ${result.machine}; Node.js ${result.node}

${reRunsTables(result)}
`;
}

/** Writes `<name>-<n8n>.json` into `outDir` and rewrites results.md there. */
export function saveResult(outDir, name, result) {
	mkdirSync(outDir, { recursive: true });
	writeFileSync(
		path.join(outDir, `${name}-${result.n8n.replace(/\W+/g, '-')}.json`),
		`${JSON.stringify(result, null, 2)}\n`,
	);
	writeReport(outDir);
}

const readResults = (folder, pattern) =>
	readdirSync(folder)
		.filter((file) => pattern.test(file))
		.map((file) => JSON.parse(readFileSync(path.join(folder, file), 'utf8')))
		.sort((a, b) => b.n8n.localeCompare(a.n8n, 'en', { numeric: true }));

/** bench/store-row.mjs: n8n's own store calls at a full row, per database. */
function storeRowSection(result) {
	const rows = Object.entries(result.rows).map(
		([database, row]) =>
			`| ${database} | ${count(row.entries)} | ${row.record.p50} / **${row.record.p95}** / ${row.record.max} | ${row.remove.p50} / **${row.remove.p95}** / ${row.remove.max} |`,
	);
	return `## n8n's store calls at a full row, n8n ${result.n8n}

Written by \`bench/store-row.mjs\` (\`npm run bench:store-row\`, also part of \`npm run bench\`): n8n's own \`DeduplicationHelper\` on its own database connection, the node's row filled to its limit, then ${result.calls} calls of each kind, one after another: a record of 2 new keys (a claim) and a remove of 2 keys. Each call reads the whole row, and a record or a remove writes it back.

- Date: ${result.date}
- Machine: ${result.machine}; Node.js ${result.node}

| Database | Entries in the row | Record, ms: p50 / p95 / max | Remove, ms: p50 / p95 / max |
|---|---:|---:|---:|
${rows.join('\n')}
`;
}

export function writeReport(folder) {
	const results = readResults(folder, /^results-.*\.json$/);
	const rateLimited = readResults(folder, /^rate-limit-.*\.json$/);
	const bursts = readResults(folder, /^burst-.*\.json$/);
	const faults = readResults(folder, /^faults-.*\.json$/);
	const reRuns = readResults(folder, /^re-runs-.*\.json$/);
	const store = readResults(folder, /^store-cost-.*\.json$/);
	const farService = readResults(folder, /^far-service-.*\.json$/);
	const storeRows = readResults(folder, /^store-row-.*\.json$/);
	const sections = results.map((result) => resultSection(result, folder));
	writeFileSync(
		path.join(folder, 'results.md'),
		`# Benchmark results

Written by \`npm run bench\` (\`bench/run.mjs\`). Each workload runs through \`n8n execute\` in real n8n, with this package installed from its tarball as a community package, against the project's sandbox (one local process). Contenders, in the order each round runs them:

- **This node**, as a user configures it, with the identifier or name from one expression.
- **n8n's HTTP Request node** (v4.2) configured to send the same requests: a Header Auth credential with \`X-API-Key\`, the same URL from an expression, the same JSON body.
- **n8n's floor**: a Set node (v3.4) that evaluates this node's own expression for each item into one field, and sends nothing: what n8n itself spends per item on a node with one expression.
- **A raw-HTTP floor**: Node's \`fetch\`, from the benchmark process, with the same concurrency as this node (32 in flight).

*ms/item* is the node's own \`executionTime\` from the run data, divided by N (the raw floor: its elapsed time divided by N); the table shows the median of the rounds. The ratios are taken side by side: in each round, one contender's time ÷ another's in the same round; the table shows the median of those ratios and, in brackets, their range over the rounds. Times from different runs are not compared. *Peak RSS* is the \`n8n execute\` process's maximum resident set (\`/usr/bin/time -f %M\`); *Wall* is that whole process, start-up included. Every run is checked: N items out, each a success (n8n's floor: each with the expression's value), and N requests seen by the sandbox (n8n's floor: none).

${sections.join('\n')}${rateLimited.map((result) => `\n${rateLimitSection(result)}`).join('')}${bursts.map((result) => `\n${burstSection(result)}`).join('')}${faults.map((result) => `\n${faultsSection(result)}`).join('')}${reRuns.map((result) => `\n${reRunsSection(result)}`).join('')}${store.map((result) => `\n${storeCostSection(result)}`).join('')}${storeRows.map((result) => `\n${storeRowSection(result)}`).join('')}${farService.map((result) => `\n${farSection(result)}`).join('')}`,
	);
}
