// The tables and results.md section of bench/far-service.mjs: a far service
// and a busy one, this node at its default, at Items per Batch 256 with Limit
// Automatic and Fixed, beside the HTTP Request node.
const fixed = (value, digits = 2) =>
	value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
const count = (value) => value.toLocaleString('en-US');
const SHORT = {
	ours: 'default',
	automatic: 'Automatic 256',
	fixed: 'Fixed 256',
	http: 'HTTP Request',
};
const held = (yes) => (yes ? 'yes' : '**no**');

export function farTable(result) {
	const keys = result.contenders.map(({ key }) => key);
	const ours = keys.filter((key) => key !== 'http');
	const names = (list) => list.map((key) => SHORT[key]).join(' / ');
	const each = (row, list, format) => list.map((key) => format(row[key])).join(' / ');
	const farLines = [
		`| Each answer after | Time, s: ${names(keys)} | ÷ HTTP Request: ${names(ours)} | Fixed 256's bound, s | Fixed 256 ÷ its bound | Held | Most at once: ${names(keys)} |`,
		'|---:|---:|---:|---:|---:|---|---:|',
		...result.far.map(
			(row) =>
				`| ${row.latencyMs} ms | ${each(row, keys, (cell) => fixed(cell.seconds))} | ${each(row, ours, (cell) => `${fixed(cell.ratio)}×`)} | ${row.bound ? fixed(row.bound.seconds) : '–'} | ${row.bound ? `**${fixed(row.bound.ratio)}×**` : '–'} | ${row.bound ? held(row.bound.held) : '–'} | ${each(row, keys, (cell) => count(cell.maxInFlight))} |`,
		),
	];
	const { busy } = result;
	const busyLines = [
		'| Service | Its own limit, s | Time, s: default / HTTP Request | ÷ its limit: default / HTTP Request | Held (≤ 1.25×) | Most at once: default / HTTP Request |',
		'|---|---:|---:|---:|---|---:|',
		`| ${busy.concurrency} at a time, ${busy.serviceMs} ms each | ${fixed(busy.limitSeconds)} | ${fixed(busy.ours.seconds)} / ${fixed(busy.http.seconds)} | **${fixed(busy.ours.ratio)}×** / ${fixed(busy.http.ratio)}× | ${held(busy.held)} | ${count(busy.ours.maxInFlight)} / ${count(busy.http.maxInFlight)} |`,
	];
	return `${farLines.join('\n')}\n\n${busyLines.join('\n')}`;
}

export function farSection(result) {
	const runs = (row) =>
		result.contenders.map(({ key }) => `${SHORT[key]} ${row[key].runs.join(', ')}`).join('; ');
	return `## A far service, and a busy one, n8n ${result.n8n}

Written by \`bench/far-service.mjs\` (\`npm run bench:far\`, also part of \`npm run bench\`). ${count(result.items)} archives through \`n8n execute\`, ${result.rounds} rounds, each round running every cell once, with On Error = Continue. *A far service*: the sandbox answers every request after the same delay. Contenders: this node on default settings (Limit Automatic, Items per Batch 32), with Items per Batch ${result.fixed} at Limit Automatic (*before*: the only lever there was) and at Limit Fixed (*after*), and the HTTP Request node on default settings (every item at once). The bound for Fixed ${result.fixed}: the larger of 0.8 × the HTTP Request node's time and 1.2 × (its own time at 0 ms + ⌈N ÷ ${result.fixed}⌉ × the delay), taken round by round. *A busy service*: the sandbox works on ${result.busy.concurrency} requests at a time, ${result.busy.serviceMs} ms each, and the others wait in line (\`POST /__sandbox/capacity\`); its own limit is N ÷ ${result.busy.concurrency} × ${result.busy.serviceMs} ms. *Time* is the node's own \`executionTime\`, the median of the rounds; each ratio is the median of the ratios taken round by round. *Most at once*: the most requests the sandbox had under way.

- Date: ${result.date}
- Machine: ${result.machine}; Node.js ${result.node}; package ${result.tarball}

${farTable(result)}

Per round, in seconds: ${result.far.map((row) => `${row.latencyMs} ms: ${runs(row)}`).join('. ')}. Busy: default ${result.busy.ours.runs.join(', ')}; HTTP Request ${result.busy.http.runs.join(', ')}.
`;
}
