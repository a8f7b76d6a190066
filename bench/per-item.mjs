// The per-item table of `npm run bench` (bench/run.mjs): the medians of the
// rounds, the ratios taken round by round (each contender's time in a round ÷
// another's in the same round), the table, and its section of results.md.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The contenders of the per-item table, in the order each round runs them. */
export const PER_ITEM_CONTENDERS = ['ours', 'http', 'n8n', 'floor'];

/** The ratios of the table: this node ÷ n8n's floor, this node ÷ HTTP Request, HTTP Request ÷ n8n's floor. */
const RATIOS = {
	oursToN8n: ['ours', 'n8n'],
	oursToHttp: ['ours', 'http'],
	httpToN8n: ['http', 'n8n'],
};

export const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const round4 = (value) => Number(value.toFixed(4));

/**
 * One cell's rounds summed up: per contender, the medians of ms/item, wall time and peak RSS and
 * the per-round ms/item; per ratio, the ratio in each round and their median.
 */
export function summarizeRounds(samples) {
	const summary = Object.fromEntries(
		Object.entries(samples).map(([name, list]) => [
			name,
			{
				msPerItem: median(list.map((sample) => sample.msPerItem)),
				wallMs: median(list.map((sample) => sample.wallMs)),
				peakRssMb:
					list[0].peakRssMb === undefined
						? undefined
						: median(list.map((sample) => sample.peakRssMb)),
				runs: list.map((sample) => round4(sample.msPerItem)),
			},
		]),
	);
	summary.ratios = Object.fromEntries(
		Object.entries(RATIOS).map(([key, [over, under]]) => {
			const runs = samples[over].map(
				(sample, index) => sample.msPerItem / samples[under][index].msPerItem,
			);
			return [key, { median: median(runs), runs: runs.map(round4) }];
		}),
	);
	return summary;
}

const fixed = (value, digits = 2) =>
	value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);

/** "**2.10×** (1.95–2.31)": the median of the per-round ratios, and their range. */
function ratioCell(ratio, bold = false) {
	if (!ratio) return '–';
	const text = `${fixed(ratio.median)}×`;
	const spread = `${fixed(Math.min(...ratio.runs))}–${fixed(Math.max(...ratio.runs))}`;
	return `${bold ? `**${text}**` : text} (${spread})`;
}

export function resultTable(result) {
	const rows = result.rows.map((row) =>
		[
			row.workload,
			row.size.toLocaleString('en-US'),
			fixed(row.ours.msPerItem, 3),
			fixed(row.http.msPerItem, 3),
			fixed(row.n8n?.msPerItem, 3),
			fixed(row.floor.msPerItem, 3),
			ratioCell(row.ratios?.oursToN8n, true),
			ratioCell(row.ratios?.oursToHttp, true),
			ratioCell(row.ratios?.httpToN8n),
			`${Math.round(row.ours.peakRssMb)} / ${Math.round(row.http.peakRssMb)}`,
			`${fixed(row.ours.wallMs / 1000, 1)} / ${fixed(row.http.wallMs / 1000, 1)}`,
		].join(' | '),
	);
	return [
		"| Workload | N | This node, ms/item | HTTP Request, ms/item | n8n's floor, ms/item | Raw floor, ms/item | This node ÷ n8n's floor | This node ÷ HTTP Request | HTTP Request ÷ n8n's floor | Peak RSS, MB: this node / HTTP Request | Wall, s: this node / HTTP Request |",
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		...rows.map((row) => `| ${row} |`),
	].join('\n');
}

const LABELS = {
	ours: 'this node',
	http: 'HTTP Request',
	n8n: "n8n's floor",
	floor: 'raw floor',
	oursToN8n: "this node ÷ n8n's floor",
	oursToHttp: 'this node ÷ HTTP Request',
};

/** "archive contact × 2000: this node 1.2, 1.3, 1.1; …": every round's figures, in run order. */
function perRoundText(row) {
	const lists = [...PER_ITEM_CONTENDERS, 'oursToN8n', 'oursToHttp']
		.map((key) => [key, row[key]?.runs ?? row.ratios?.[key]?.runs])
		.filter(([, runs]) => runs)
		.map(([key, runs]) => `${LABELS[key]} ${runs.map((value) => fixed(value, 3)).join(', ')}`);
	return `${row.workload} × ${row.size}: ${lists.join('; ')}`;
}

/** The per-item section of results.md for one n8n version, with its CPU profile when there is one. */
export function resultSection(result, folder) {
	const tag = result.n8n.replace(/\W+/g, '-');
	const profile = path.join(folder, `profile-${tag}.md`);
	return `## n8n ${result.n8n}

- Date: ${result.date}
- Machine: ${result.machine}${result.load ? `; load average before the run ${result.load}` : ''}
- Node.js ${result.node}; n8n ${result.n8n}; this package ${result.tarball} (${result.tarballKb} kB packed, no runtime dependencies)
- ${result.rounds} rounds per cell, contenders alternating; ms/item are medians, each ratio is the median of the ratios taken round by round, with their range in brackets${result.repeatedRuns ? `; ${result.repeatedRuns} run(s) repeated because n8n's printed run data was not readable JSON` : ''}

![Time per item on n8n ${result.n8n}](results-${tag}.svg)

${resultTable(result)}

Per round, in run order (ms/item, then the ratios): ${result.rows.map(perRoundText).join('. ')}.
${existsSync(profile) ? `\n${readFileSync(profile, 'utf8').replace(/^# /, '### ')}` : ''}`;
}
