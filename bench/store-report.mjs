// bench/results.md's section for bench/store-cost.mjs: Skip Items Done
// Before's cost, how long n8n's main process was held meanwhile, and many
// small executions at once.
const fixed = (value, digits = 2) =>
	value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
const count = (value) => (value === undefined ? '–' : value.toLocaleString('en-US'));
const ms = (value) => (value === undefined ? '–' : `${Math.round(value).toLocaleString('en-US')}`);
/** p50 / p99 / max of a spread, in ms. */
const trio = (figures) => [figures.p50, figures.p99, figures.max].map(ms).join(' / ');

function skipTables(result) {
	const rows = result.skip;
	return [
		'| Archives | Round | Without the option, s (before / after) | With it, first execution, s | With it, second execution, s | Cost of the option, first / second (× without) | Second execution: skipped / sent again |',
		'|---:|---:|---:|---:|---:|---:|---:|',
		...rows.map(
			(row) =>
				`| ${count(row.size)} | ${row.round} | ${fixed(row.without.ms / 1000, 1)} / ${fixed(row.withoutAgain.ms / 1000, 1)} | ${fixed(row.first.ms / 1000, 1)} | ${fixed(row.second.ms / 1000, 1)} | **${fixed(row.firstRatio)}× / ${fixed(row.secondRatio)}×** | ${count(row.second.skipped)} / ${count(row.second.sent)} |`,
		),
		'',
		`| Archives | Run | Probe webhook latency, ms: p50 / p99 / max | Calls | n8n's event-loop delay, longest per second, ms: p50 / p99 / max | Load average |`,
		'|---:|---|---:|---:|---:|---|',
		...rows.flatMap((row) =>
			[
				['without the option', row.without],
				['with it, first', row.first],
				['with it, second', row.second],
				['without it, again', row.withoutAgain],
			].map(
				([label, run]) =>
					`| ${count(row.size)} | ${label} | ${trio(run.probe)} | ${count(run.probe.count)} | ${run.loopMax.count ? trio(run.loopMax) : 'no /metrics'} | ${run.load} |`,
			),
		),
	].join('\n');
}

/** One-item runs at a row each size left full: what one store call holds n8n's main process. */
function holdTable(rows) {
	const held = rows.filter((row) => row.hold);
	if (held.length === 0) return '';
	return [
		"| After archives | Round | One-item runs with the option, at a row of about N entries: n8n's longest event-loop delay, the longest / the runs' median / the probe's longest answer, ms | The same without the option (the journal's row, about empty) | Load average |",
		'|---:|---:|---:|---:|---|',
		...held.map(
			(row) =>
				`| ${count(row.size)} | ${row.round} | ${count(row.hold.keyed.entries)}: **${ms(row.hold.keyed.loopMaxMs)}** / ${ms(row.hold.keyed.loopMedianMs)} / ${ms(row.hold.keyed.probeMaxMs)} | ${ms(row.hold.plain.loopMaxMs)} / ${ms(row.hold.plain.loopMedianMs)} / ${ms(row.hold.plain.probeMaxMs)} | ${row.hold.keyed.load ?? '–'} |`,
		),
	].join('\n');
}

function burstTable(burst) {
	const line = (label, runs) =>
		`| ${label} | ${runs.map((run) => fixed(run.seconds, 1)).join(', ')} | ${runs.map((run) => `${fixed(run.ofIdeal)}×`).join(', ')} | ${runs.map((run) => `${run.succeeded}`).join(', ')} | ${runs.map((run) => count(run.rejected)).join(', ')} | ${runs.map((run) => count(run.storeFailed)).join(', ')} | ${runs.map((run) => run.load).join('; ')} |`;
	return [
		`| ${burst.events} webhook calls at once, one archive each, at ${burst.rate}/s | Time, s (per round) | ÷ ideal ${burst.idealSeconds} s | Succeeded | Rejected (429) | n8n's store failed (the node's warning) | Load average after each |`,
		'|---|---:|---:|---:|---:|---:|---|',
		line('This build', burst.ours),
		...(burst.baseline
			? [line(`The earlier build ${burst.baseline.label}`, burst.baseline.runs)]
			: []),
	].join('\n');
}

/** The tables, as the run prints them and results.md shows them. */
export function storeCostTables(result) {
	return [
		...(result.skip.length ? [skipTables(result), '', holdTable(result.skip), ''] : []),
		...(result.burst ? [burstTable(result.burst)] : []),
	].join('\n');
}

export function storeCostSection(result) {
	return `## n8n's store for processed items, n8n ${result.n8n}

Written by \`bench/store-cost.mjs\` (\`npm run bench:store\`, also part of \`npm run bench:re-runs\` and \`npm run bench\`). This run: \`${result.command}\`, package ${result.package}. In \`n8n start\` (regular mode), each run started by a webhook, in one run:
- **Skip Items Done Before's cost.** Archive contact × N, without the option, then with Request Options › Skip Items Done Before (Key = \`{{ $json.id }}\`, a workflow of its own per size and round, so the store starts empty) a first and a second time, then without it again. *s* is from the end of the node before (a Code node making the items) to the start of the node after (a Code node counting them): this node's run, and n8n handing the items on. *Cost* is each run with the option ÷ the mean of the two without. *Skipped*: items the node put out as skipped in the second execution; *sent again*: archives the sandbox received in it.
- **How long n8n's main process is held.** During each of those runs, a second workflow's webhook (a Webhook node that answers at once) is called one call at a time, ${result.probeMs} ms after the last answer; its latency rises while the main process is busy. n8n's \`/metrics\` (\`N8N_METRICS=true\`) is read once a second: \`nodejs_eventloop_lag_max_seconds\`, the longest event-loop delay since the last read.
- **How long one store call holds it.** After each size's runs, five one-item executions of the keyed workflow (its row about full: three entries a key) and five of the workflow without the option, each 3 s after the last: a one-item run does little but the node's store calls, each of which reads, checks and writes the whole row in n8n's main process. The longest event-loop delay during them is the longest such call.
- **Many small executions.** Webhook calls at once, each its own execution archiving one contact with this node on default settings, against the sandbox limited to R requests per second (burst R, 429 with Retry-After in seconds): the time until the last answer ÷ the ideal N ÷ R, rounds alternating with an earlier build (\`BENCH_BASELINE\`) when given, each in an n8n of its own, the node's row set to 150,000 marks of other items before each round (a full row).

- Date: ${result.date}
- Machine: ${result.machine}; Node.js ${result.node}
${result.note ? `- ${result.note}\n` : ''}
${storeCostTables(result)}
`;
}
