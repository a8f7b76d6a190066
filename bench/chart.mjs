// A plain SVG bar chart of a benchmark result: ms per item for each workload
// and size, this node beside the HTTP Request node and the raw-HTTP floor.
const COLORS = { ours: '#1f6feb', http: '#d29922', floor: '#8b949e' };
const LABELS = { ours: 'This node', http: 'HTTP Request node', floor: 'Raw HTTP floor (fetch)' };

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderChart(result) {
	const barHeight = 16;
	const groupGap = 18;
	const left = 190;
	const plotWidth = 480;
	const top = 70;
	const contenders = ['ours', 'http', 'floor'];
	const max = Math.max(...result.rows.flatMap((row) => contenders.map((name) => row[name].msPerItem)));
	const scale = plotWidth / max;
	const groupHeight = contenders.length * barHeight + groupGap;
	const height = top + result.rows.length * groupHeight + 40;
	const width = left + plotWidth + 150;

	const parts = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
		`<rect width="100%" height="100%" fill="#ffffff"/>`,
		`<text x="16" y="24" font-size="15" font-weight="bold">Time per item in n8n ${escape(result.n8n)} (median of ${result.rounds} runs; shorter is faster)</text>`,
	];
	contenders.forEach((name, index) => {
		const x = 16 + index * 200;
		parts.push(`<rect x="${x}" y="38" width="12" height="12" fill="${COLORS[name]}"/>`, `<text x="${x + 18}" y="48">${escape(LABELS[name])}</text>`);
	});
	result.rows.forEach((row, rowIndex) => {
		const y0 = top + rowIndex * groupHeight;
		parts.push(
			`<text x="${left - 10}" y="${y0 + barHeight * 1.5 + 4}" text-anchor="end" font-weight="bold">${escape(row.workload)}</text>`,
			`<text x="${left - 10}" y="${y0 + barHeight * 1.5 + 18}" text-anchor="end" fill="#57606a">${row.size.toLocaleString('en-US')} items</text>`,
		);
		contenders.forEach((name, index) => {
			const value = row[name].msPerItem;
			const y = y0 + index * barHeight;
			const ratio = name === 'ours' ? ` (${(value / row.http.msPerItem).toFixed(2)}× HTTP Request)` : '';
			parts.push(
				`<rect x="${left}" y="${y + 2}" width="${Math.max(1, value * scale).toFixed(1)}" height="${barHeight - 4}" fill="${COLORS[name]}"/>`,
				`<text x="${left + value * scale + 6}" y="${y + barHeight - 4}">${value.toFixed(2)} ms${escape(ratio)}</text>`,
			);
		});
	});
	parts.push(
		`<text x="16" y="${height - 14}" fill="#57606a">${escape(result.machine)}; Node.js ${escape(result.node)}; ${escape(result.date.slice(0, 10))}</text>`,
		'</svg>',
	);
	return `${parts.join('\n')}\n`;
}
