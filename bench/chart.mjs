// A plain SVG bar chart of a benchmark result: ms per item for each workload
// and size, this node beside the HTTP Request node, n8n's floor and the raw-HTTP floor.
const COLORS = { ours: '#1f6feb', http: '#d29922', n8n: '#2da44e', floor: '#8b949e' };
const LABELS = {
	ours: 'This node',
	http: 'HTTP Request node',
	n8n: "n8n's floor (Set node)",
	floor: 'Raw HTTP floor (fetch)',
};

const escape = (text) =>
	String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderChart(result) {
	const barHeight = 16;
	const groupGap = 18;
	const left = 190;
	const plotWidth = 480;
	const top = 70;
	const contenders = ['ours', 'http', 'n8n', 'floor'].filter((name) => result.rows[0][name]);
	const max = Math.max(
		...result.rows.flatMap((row) => contenders.map((name) => row[name].msPerItem)),
	);
	const scale = plotWidth / max;
	const groupHeight = contenders.length * barHeight + groupGap;
	const height = top + result.rows.length * groupHeight + 40;
	const width = left + plotWidth + 280;

	const parts = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
		`<rect width="100%" height="100%" fill="#ffffff"/>`,
		`<text x="16" y="24" font-size="15" font-weight="bold">Time per item in n8n ${escape(result.n8n)} (median of ${result.rounds} runs; shorter is faster)</text>`,
	];
	contenders.forEach((name, index) => {
		const x = 16 + index * 180;
		parts.push(
			`<rect x="${x}" y="38" width="12" height="12" fill="${COLORS[name]}"/>`,
			`<text x="${x + 18}" y="48">${escape(LABELS[name])}</text>`,
		);
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
			const ratios = row.ratios
				? [
						[row.ratios.oursToN8n.median, "n8n's floor"],
						[row.ratios.oursToHttp.median, 'HTTP Request'],
					]
				: [[value / row.http.msPerItem, 'HTTP Request']];
			const ratio =
				name === 'ours'
					? ` (${ratios.map(([times, of]) => `${times.toFixed(2)}× ${of}`).join(', ')})`
					: '';
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

const RATE_COLORS = { ours: COLORS.ours, http: COLORS.http, retry: '#bf3989' };

/**
 * The rate-limited benchmark: per workload and contender, the share of items
 * that succeeded, the duplicates the service created, and time ÷ the ideal N ÷ R.
 */
export function rateLimitChart(result) {
	const left = 320;
	const plotWidth = 300;
	const rowHeight = 40;
	const top = 64;
	const maxRatio = Math.max(2, ...result.rows.map((row) => row.ofIdeal));
	const width = left + plotWidth + 320;
	const height = top + result.rows.length * rowHeight + 20;
	const bars = result.rows.map((row, index) => {
		const y = top + index * rowHeight;
		const share = row.succeeded / result.items;
		const ratio = row.ofIdeal / maxRatio;
		const color = RATE_COLORS[row.key] ?? COLORS.floor;
		return [
			`<text x="${left - 10}" y="${y + 11}" text-anchor="end" font-weight="bold">${escape(row.workload)}</text>`,
			`<text x="${left - 10}" y="${y + 25}" text-anchor="end">${escape(row.contender)}</text>`,
			`<rect x="${left}" y="${y}" width="${(share * plotWidth).toFixed(1)}" height="13" fill="${color}"/>`,
			`<text x="${left + share * plotWidth + 6}" y="${y + 11}">${(100 * share).toFixed(1)}% succeeded · ${row.duplicates.toLocaleString('en-US')} duplicates · ${row.rejected.toLocaleString('en-US')} rejected</text>`,
			`<rect x="${left}" y="${y + 16}" width="${(ratio * plotWidth).toFixed(1)}" height="9" fill="${color}" opacity="0.45"/>`,
			`<text x="${left + ratio * plotWidth + 6}" y="${y + 25}" font-size="11">${row.ofIdeal.toFixed(2)}× the ideal time</text>`,
		].join('');
	});
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
		'<rect width="100%" height="100%" fill="#ffffff"/>',
		`<text x="20" y="24" font-size="15" font-weight="bold">${result.items.toLocaleString('en-US')} items, a service that allows ${result.rate} requests per second (n8n ${escape(result.n8n)})</text>`,
		`<text x="20" y="42" font-size="11">Solid bar: share of items that succeeded. Light bar: time as a multiple of the ideal N ÷ R = ${result.idealSeconds} s (scale up to ${maxRatio.toFixed(1)}×).</text>`,
		...bars,
		'</svg>',
		'',
	].join('\n');
}
