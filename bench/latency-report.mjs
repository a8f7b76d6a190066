// The tables, chart and results.md section of bench/latency.mjs: a far
// service (every answer delayed) and a busy one (C at a time), this node
// beside the HTTP Request node and, when measured, an earlier build.
const fixed = (value, digits = 2) =>
	value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
const count = (value) => value.toLocaleString('en-US');

const NAMES = { ours: 'This node', before: 'Before', http: 'HTTP Request' };
const COLORS = { ours: '#1f6feb', before: '#8b949e', http: '#d29922' };

/** "**1.12×** (1.05–1.20)": the median of the per-round ratios, and their range. */
const ratioCell = (cell, bold) =>
	`${bold ? `**${fixed(cell.ofIdeal)}×**` : `${fixed(cell.ofIdeal)}×`} (${fixed(cell.ofIdealRange[0])}–${fixed(cell.ofIdealRange[1])})`;

const each = (result, cell, format) =>
	result.contenders.map((key) => format(cell[key], key)).join(' / ');

export function latencyTable(result) {
	const names = result.contenders.map((key) => NAMES[key]).join(' / ');
	const others = result.contenders.filter((key) => key !== 'http');
	const sweep = [
		`| Workload | N | Each answer after | Time, s: ${names} | ${others.map((key) => `${NAMES[key]} ÷ (this node at 0 ms + one round trip)`).join(' | ')} | ${others.map((key) => `${NAMES[key]} ÷ HTTP Request`).join(' | ')} | Most at once: ${names} |`,
		`|---|---:|---:|---:|${others.map(() => '---:').join('|')}|${others.map(() => '---:').join('|')}|---:|`,
		...result.latency.map((row) =>
			[
				row.workload,
				count(row.size),
				`${row.latencyMs} ms`,
				each(result, row, (cell) => fixed(cell.seconds)),
				...others.map((key) => ratioCell(row[key], key === 'ours')),
				...others.map((key) =>
					key === 'ours' ? `**${fixed(row[key].ofHttp)}×**` : `${fixed(row[key].ofHttp)}×`,
				),
				each(result, row, (cell) => count(cell.maxInFlight)),
			].join(' | '),
		),
	].map((line) => (line.startsWith('|') ? line : `| ${line} |`));
	const busy = [
		`| Service | N | Its own limit, s | Time, s: ${names} | ${result.contenders.map((key) => `${NAMES[key]} ÷ its limit`).join(' | ')} | Most at once: ${names} | p95 time in line, ms: ${names} |`,
		`|---|---:|---:|---:|${result.contenders.map(() => '---:').join('|')}|---:|---:|`,
		...result.capacity.map((row) =>
			[
				`${row.concurrency} at a time, ${row.serviceMs} ms each`,
				count(row.size),
				fixed((row.size / row.concurrency) * (row.serviceMs / 1000), 1),
				each(result, row, (cell) => fixed(cell.seconds)),
				...result.contenders.map((key) => ratioCell(row[key], key === 'ours')),
				each(result, row, (cell) => count(cell.maxInFlight)),
				each(result, row, (cell) => fixed(cell.lineP95Ms, 0)),
			].join(' | '),
		),
	].map((line) => (line.startsWith('|') ? line : `| ${line} |`));
	return `${sweep.join('\n')}\n\n${busy.join('\n')}`;
}

export function latencySection(result) {
	const tag = result.n8n.replace(/\W+/g, '-');
	const before = result.tarballs.before
		? ` *Before* is this node as the build ${result.tarballs.before}, in an n8n user folder and sandbox of its own (\`BENCH_BASELINE\`).`
		: '';
	return `## A far service, and a busy one, n8n ${result.n8n}

Written by \`bench/latency.mjs\` (\`npm run bench:latency\`, also part of \`npm run bench\`). Each contender in turn, ${result.rounds} rounds (${result.roundsLarge} for 10,000 items), through \`n8n execute\`, on default settings (On Error = Continue).${before} *A far service*: the sandbox answers every request after the same delay, as a service across the internet would; the bound of issue 44 is this node's own time at 0 ms in the same round plus one round trip. *A busy service*: the sandbox works on C requests at a time, each for the service time, and the others wait in line (\`POST /__sandbox/capacity\`); its own limit is N ÷ C × the service time. *Time* is the node's own \`executionTime\` (median of the rounds); each ratio is the median of the ratios taken round by round, with their range. *Most at once* is the most requests the sandbox had under way; *time in line*, how long requests waited for one of its C workers (p95 over the run).

- Date: ${result.date}
- Machine: ${result.machine}; Node.js ${result.node}; package ${result.tarballs.ours}

![A far service and a busy one on n8n ${result.n8n}](latency-${tag}.svg)

${latencyTable(result)}
`;
}

const escape = (text) =>
	String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Bars of time ÷ the bound (a far service) or ÷ the service's own limit (a busy one), with the most in flight. */
export function latencyChart(result) {
	const rows = [
		...result.latency.map((row) => ({
			label: `${row.workload} × ${count(row.size)}`,
			detail: `each answer after ${row.latencyMs} ms`,
			row,
		})),
		...result.capacity.map((row) => ({
			label: `archive contact × ${count(row.size)}`,
			detail: `${row.concurrency} at a time, ${row.serviceMs} ms each`,
			row,
		})),
	];
	const [left, plotWidth, barHeight, gap, top] = [250, 420, 14, 14, 64];
	const max = Math.max(
		2,
		...rows.flatMap(({ row }) => result.contenders.map((key) => row[key].ofIdeal)),
	);
	const scale = plotWidth / Math.min(max, 12);
	const groupHeight = result.contenders.length * barHeight + gap;
	const width = left + plotWidth + 230;
	const height = top + rows.length * groupHeight + 30;
	const parts = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
		'<rect width="100%" height="100%" fill="#ffffff"/>',
		`<text x="16" y="22" font-size="15" font-weight="bold">A far service and a busy one, n8n ${escape(result.n8n)} (median of ${result.rounds} rounds; shorter is faster)</text>`,
		`<text x="16" y="40" font-size="11">Time ÷ this node's own time at 0 ms plus one round trip (a far service), or ÷ the service's own limit N ÷ C × service time (a busy one); after each bar, the most requests at once.</text>`,
	];
	result.contenders.forEach((key, index) => {
		const x = 16 + index * 150;
		parts.push(
			`<rect x="${x}" y="46" width="10" height="10" fill="${COLORS[key]}"/>`,
			`<text x="${x + 15}" y="55">${NAMES[key]}</text>`,
		);
	});
	rows.forEach(({ label, detail, row }, index) => {
		const y0 = top + index * groupHeight;
		parts.push(
			`<text x="${left - 8}" y="${y0 + 12}" text-anchor="end" font-weight="bold">${escape(label)}</text>`,
			`<text x="${left - 8}" y="${y0 + 26}" text-anchor="end" fill="#57606a">${escape(detail)}</text>`,
		);
		result.contenders.forEach((key, bar) => {
			const cell = row[key];
			const y = y0 + bar * barHeight;
			const length = Math.min(cell.ofIdeal, 12) * scale;
			const line = cell.lineP95Ms > 0 ? `, p95 ${fixed(cell.lineP95Ms, 0)} ms in line` : '';
			parts.push(
				`<rect x="${left}" y="${y + 1}" width="${Math.max(1, length).toFixed(1)}" height="${barHeight - 3}" fill="${COLORS[key]}"/>`,
				`<text x="${left + length + 5}" y="${y + barHeight - 3}" font-size="11">${fixed(cell.ofIdeal)}× · ${count(cell.maxInFlight)} at once${line}</text>`,
			);
		});
	});
	parts.push(
		`<text x="16" y="${height - 10}" fill="#57606a">${escape(result.machine)}; ${escape(result.date.slice(0, 10))}</text>`,
		'</svg>',
		'',
	);
	return parts.join('\n');
}
