// The CPU profile part of `npm run bench` (bench/run.mjs): where the n8n
// process spends its time, by origin, for this node and the HTTP Request node.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { PACKAGE_NAME as PACKAGE } from '../scripts/n8n/versions.mts';
import { log } from './setup.mjs';

/** Where the n8n process spends its CPU time, from a V8 CPU profile, grouped by origin. */
function categorize(frame) {
	const { url, functionName } = frame;
	if (functionName === '(garbage collector)') return 'garbage collection';
	if (functionName === '(idle)') return 'idle (waiting for the network)';
	if (functionName === '(program)') return 'V8 / native';
	if (url.includes('isolated-vm') || /n8n-workflow\/dist\/.*(expression|isolated|vm-)/i.test(url))
		return 'expression evaluation';
	if (url.includes(PACKAGE)) return 'this node';
	if (url.includes('/HttpRequest/')) return 'HTTP Request node';
	if (/\/axios\/|node:(_http|http|net|tls|dns|zlib|stream)|follow-redirects|form-data/.test(url))
		return 'HTTP client and sockets';
	if (url.includes('/n8n-core/')) return 'n8n-core (execution, request helpers)';
	if (url.includes('/n8n-workflow/')) return 'n8n-workflow (parameters, data)';
	if (/typeorm|sqlite/.test(url)) return 'database';
	return 'other (n8n start-up, JSON, Node internals)';
}

/**
 * One `node --cpu-prof` run of `n8n execute` per contender (`ids.ours`, `ids.http`), its self time
 * grouped by origin; prints the table and writes it to `<outDir>/profile-<version>.md`.
 */
export async function profile({ bench, version, outDir, workload, size, ids }) {
	const { n8n, work, env, control } = bench;
	const script = execFileSync('readlink', ['-f', n8n], { encoding: 'utf8' }).trim();
	const lines = [
		`# CPU profile on n8n ${version}: ${workload.name} × ${size}`,
		'',
		'Self time by origin, from `node --cpu-prof` of the whole `n8n execute` process (start-up included, which is the same for both).',
		'',
	];
	const totals = {};
	for (const contender of ['ours', 'http']) {
		await control('reset', 'POST');
		const dir = mkdtempSync(path.join(work, 'prof-'));
		execFileSync(
			process.execPath,
			[
				'--cpu-prof',
				`--cpu-prof-dir=${dir}`,
				script,
				'execute',
				`--id=${ids[contender]}`,
				'--rawOutput',
			],
			{
				env,
				stdio: ['ignore', 'ignore', 'ignore'],
				maxBuffer: 1 << 30,
			},
		);
		const file = execFileSync('sh', ['-c', `ls ${dir}/*.cpuprofile | head -1`], {
			encoding: 'utf8',
		}).trim();
		const prof = JSON.parse(readFileSync(file, 'utf8'));
		const byId = new Map(prof.nodes.map((node) => [node.id, node]));
		const self = {};
		prof.samples.forEach((id, index) => {
			const category = categorize(byId.get(id).callFrame);
			self[category] = (self[category] ?? 0) + (prof.timeDeltas[index] ?? 0) / 1000;
		});
		totals[contender] = self;
		if (process.env.BENCH_PROFILE_DETAIL) {
			const detail = {};
			prof.samples.forEach((id, index) => {
				const frame = byId.get(id).callFrame;
				if (categorize(frame) !== process.env.BENCH_PROFILE_DETAIL) return;
				const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('node_modules/').pop()}:${frame.lineNumber}`;
				detail[key] = (detail[key] ?? 0) + (prof.timeDeltas[index] ?? 0) / 1000;
			});
			log(
				`${contender}: ${Object.entries(detail)
					.sort((a, b) => b[1] - a[1])
					.slice(0, 12)
					.map(([key, ms]) => `\n  ${ms.toFixed(0)} ms ${key}`)
					.join('')}`,
			);
		}
	}
	const categories = [...new Set([...Object.keys(totals.ours), ...Object.keys(totals.http)])].sort(
		(a, b) => (totals.http[b] ?? 0) - (totals.http[a] ?? 0),
	);
	lines.push(
		'| Origin | This node, ms | HTTP Request node, ms | Difference per item, ms |',
		'|---|---:|---:|---:|',
	);
	for (const category of categories) {
		const ours = totals.ours[category] ?? 0;
		const http = totals.http[category] ?? 0;
		lines.push(
			`| ${category} | ${ours.toFixed(0)} | ${http.toFixed(0)} | ${((http - ours) / size).toFixed(3)} |`,
		);
	}
	const text = `${lines.join('\n')}\n`;
	console.log(text);
	mkdirSync(outDir, { recursive: true });
	writeFileSync(path.join(outDir, `profile-${version.replace(/\W+/g, '-')}.md`), text);
}
