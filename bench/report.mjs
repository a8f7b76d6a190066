// bench/results.md from every results-<n8n version>.json (and profile-*.md)
// in the output folder: the machine, the versions, the date, the tables.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const fixed = (value, digits = 2) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));

export function resultTable(result) {
	const rows = result.rows.map(
		(row) =>
			`| ${row.workload} | ${row.size.toLocaleString('en-US')} | ${fixed(row.ours.msPerItem, 3)} | ${fixed(row.http.msPerItem, 3)} | ${fixed(row.floor.msPerItem, 3)} | **${fixed(row.ours.msPerItem / row.http.msPerItem)}×** | ${fixed(row.ours.msPerItem / row.floor.msPerItem, 1)}× | ${fixed(row.http.msPerItem / row.floor.msPerItem, 1)}× | ${Math.round(row.ours.peakRssMb)} / ${Math.round(row.http.peakRssMb)} | ${fixed(row.ours.wallMs / 1000, 1)} / ${fixed(row.http.wallMs / 1000, 1)} |`,
	);
	return [
		'| Workload | N | This node, ms/item | HTTP Request, ms/item | Floor, ms/item | This node ÷ HTTP Request | This node ÷ floor | HTTP Request ÷ floor | Peak RSS, MB: this node / HTTP Request | Wall, s: this node / HTTP Request |',
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		...rows,
	].join('\n');
}

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
	const tag = result.n8n.replace(/\W+/g, '-');
	return `## Rate-limited, n8n ${result.n8n}

Written by \`bench/rate-limit.mjs\` (also part of \`npm run bench\`). The sandbox allows ${result.rate} requests per second (a token bucket with a burst of ${result.burst}) and answers 429 with \`Retry-After\` in seconds beyond that. ${count(result.items)} items run through \`n8n execute\`, each contender in turn in one run. The ideal time is N ÷ R = ${result.idealSeconds} s. Contenders: this node on default settings; the HTTP Request node on default settings; the HTTP Request node with Settings › Retry On Fail (5 tries, 5 s apart), which acts only with On Error = Stop, so that is how it runs (the others run with On Error = Continue, to count items). *Time* is the node's own \`executionTime\`, waits and tries included. *Duplicates*: for creates, sequences the service created more than once under the same name; for archives, the same archive carried out more than once.

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

const readResults = (folder, pattern) =>
	readdirSync(folder)
		.filter((file) => pattern.test(file))
		.map((file) => JSON.parse(readFileSync(path.join(folder, file), 'utf8')))
		.sort((a, b) => b.n8n.localeCompare(a.n8n, 'en', { numeric: true }));

export function writeReport(folder) {
	const results = readResults(folder, /^results-.*\.json$/);
	const rateLimited = readResults(folder, /^rate-limit-.*\.json$/);
	const bursts = readResults(folder, /^burst-.*\.json$/);
	const sections = results.map((result) => {
		const tag = result.n8n.replace(/\W+/g, '-');
		const profile = path.join(folder, `profile-${tag}.md`);
		return `## n8n ${result.n8n}

- Date: ${result.date}
- Machine: ${result.machine}
- Node.js ${result.node}; n8n ${result.n8n}; this package ${result.tarball} (${result.tarballKb} kB packed, no runtime dependencies)
- ${result.rounds} rounds per cell, contenders alternating; medians shown${result.repeatedRuns ? `; ${result.repeatedRuns} run(s) repeated because n8n's printed run data was not readable JSON` : ''}

![Time per item on n8n ${result.n8n}](results-${tag}.svg)

${resultTable(result)}

Per-round ms/item, in run order: ${result.rows.map((row) => `${row.workload} × ${row.size}: this node ${row.ours.runs.join(', ')}; HTTP Request ${row.http.runs.join(', ')}; floor ${row.floor.runs.join(', ')}`).join('. ')}.
${existsSync(profile) ? `\n${readFileSync(profile, 'utf8').replace(/^# /, '### ')}` : ''}`;
	});
	writeFileSync(
		path.join(folder, 'results.md'),
		`# Benchmark results

Written by \`npm run bench\` (\`bench/run.mjs\`). Each workload runs through \`n8n execute\` in real n8n, with this package installed from its tarball as a community package, against the project's sandbox (one local process). Contenders:

- **This node**, as a user configures it, with the identifier or name from an expression.
- **n8n's HTTP Request node** (v4.2) configured to send the same requests: a Header Auth credential with \`X-API-Key\`, the same URL from an expression, the same JSON body.
- **A raw-HTTP floor**: Node's \`fetch\`, from the benchmark process, with the same concurrency as this node (32 in flight).

*ms/item* is the node's own \`executionTime\` from the run data, divided by N (the floor: its elapsed time divided by N). *Peak RSS* is the \`n8n execute\` process's maximum resident set (\`/usr/bin/time -f %M\`); *Wall* is that whole process, start-up included. Every run is checked: N items out, each a success, and N requests seen by the sandbox.

${sections.join('\n')}${rateLimited.map((result) => `\n${rateLimitSection(result)}`).join('')}${bursts.map((result) => `\n${burstSection(result)}`).join('')}`,
	);
}
