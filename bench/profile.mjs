// The CPU profile part of `npm run bench` (bench/run.mjs): where the n8n
// process spends its time while the node runs, per item and by what it is
// doing, for this node, the HTTP Request node and n8n's floor (the Set node).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { PACKAGE_NAME as PACKAGE } from '../scripts/n8n/versions.mts';
import { log } from './setup.mjs';

/** The contenders profiled, with the code that is each node's own. */
const NODES = {
	ours: { label: 'This node', code: (url) => url.includes(PACKAGE) },
	http: { label: 'HTTP Request node', code: (url) => url.includes('/nodes/HttpRequest/') },
	n8n: { label: "n8n's floor (Set node)", code: (url) => url.includes('/nodes/Set/') },
};

/** The functions a node runs while it executes (its async functions resumed included), not while it loads. */
const RUNNING = /^(execute|runOperation|run|sendAll|worker|dispatch|send|prepare|buildRequest)$/;

const EXPRESSION =
	/isolated-vm|expression-runtime|n8n-workflow\/dist\/.*(expression|workflow-data-proxy)|\/luxon\//;
const HTTP =
	/\/axios\/|backend-network|request-helpers|node:(_http|http|https|net|tls|dns)|follow-redirects|proxy-from-env|node:internal\/(abort_controller|streams)/;

/**
 * What one sample was doing, by its whole stack: evaluating an expression, sending a request (n8n's
 * HTTP helper, axios, sockets), the node's own code, the database, or n8n's engine around them.
 */
function categorize(stack, own) {
	const [leaf] = stack;
	if (leaf.functionName === '(garbage collector)') return 'garbage collection';
	if (leaf.functionName === '(idle)') return 'idle (waiting for the network)';
	if (leaf.functionName === '(program)') return 'V8 / native';
	if (stack.some((frame) => EXPRESSION.test(frame.url))) return 'expression evaluation';
	if (stack.some((frame) => HTTP.test(frame.url)))
		return "sending: n8n's HTTP helper, axios, sockets";
	if (own(leaf.url)) return "the node's own code";
	if (stack.some((frame) => /typeorm|sqlite/.test(frame.url))) return 'database';
	if (stack.some((frame) => /\/n8n-(core|workflow)\//.test(frame.url)))
		return "n8n's engine (parameters, items, run data)";
	return 'other (Node internals, JSON, events)';
}

/** One `node --cpu-prof` run of workflow `id`; returns the parsed profile. */
function cpuProfile({ n8n, env, work }, id) {
	const script = execFileSync('readlink', ['-f', n8n], { encoding: 'utf8' }).trim();
	const dir = mkdtempSync(path.join(work, 'prof-'));
	execFileSync(
		process.execPath,
		[
			'--cpu-prof',
			'--cpu-prof-interval=250',
			`--cpu-prof-dir=${dir}`,
			script,
			'execute',
			`--id=${id}`,
			'--rawOutput',
		],
		{ env, stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 1 << 30 },
	);
	const file = execFileSync('sh', ['-c', `ls ${dir}/*.cpuprofile | head -1`], {
		encoding: 'utf8',
	}).trim();
	return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * A profile's samples while the node ran: from the first to the last sample with one of the node's
 * running functions on its stack. Returns the ms per category, the window's ms, and the top functions.
 */
function whileRunning(prof, own) {
	const byId = new Map(prof.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of prof.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const stackOf = (id) => {
		const stack = [];
		for (let at = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at).callFrame);
		return stack;
	};
	const stacks = prof.samples.map(stackOf);
	const running = (stack) =>
		stack.some((frame) => own(frame.url) && RUNNING.test(frame.functionName));
	const first = stacks.findIndex(running);
	const last = stacks.findLastIndex(running);
	const byCategory = {};
	const byFunction = {};
	let windowMs = 0;
	for (let index = first; index >= 0 && index <= last; index++) {
		const ms = (prof.timeDeltas[index + 1] ?? 0) / 1000;
		const stack = stacks[index];
		const category = categorize(stack, own);
		byCategory[category] = (byCategory[category] ?? 0) + ms;
		const leaf = `${stack[0].functionName || '(anonymous)'} ${stack[0].url.split('node_modules/').pop()}:${stack[0].lineNumber}`;
		byFunction[leaf] = (byFunction[leaf] ?? 0) + ms;
		windowMs += ms;
	}
	return { byCategory, byFunction, windowMs };
}

/**
 * One CPU profile per contender (`ids.ours`, `ids.http`, `ids.n8n`) of `n8n execute`, the samples
 * while its node ran grouped by what they were doing, per item; prints the table and writes it to
 * `<outDir>/profile-<version>.md`. BENCH_PROFILE_DETAIL=1 also prints each one's top functions.
 */
export async function profile({ bench, version, outDir, workload, size, ids }) {
	const totals = {};
	for (const [key, { code }] of Object.entries(NODES)) {
		await bench.control('reset', 'POST');
		const result = whileRunning(cpuProfile(bench, ids[key]), code);
		totals[key] = result;
		if (process.env.BENCH_PROFILE_DETAIL)
			log(
				`${key}: ${Object.entries(result.byFunction)
					.sort((a, b) => b[1] - a[1])
					.slice(0, 15)
					.map(([name, ms]) => `\n  ${(ms / size).toFixed(3)} ms/item ${name}`)
					.join('')}`,
			);
	}
	const categories = [
		...new Set(Object.values(totals).flatMap((result) => Object.keys(result.byCategory))),
	].sort((a, b) => (totals.ours.byCategory[b] ?? 0) - (totals.ours.byCategory[a] ?? 0));
	const cell = (ms) => (ms / size).toFixed(3);
	const keys = Object.keys(NODES);
	const text = [
		`# CPU profile on n8n ${version}: ${workload.name} × ${size}`,
		'',
		"From `node --cpu-prof` (sampled every 0.25 ms) of each `n8n execute`, the samples while the node ran (from the first to the last with the node's own running code on the stack), in ms per item, by what the stack was doing: anything under an expression's evaluation is *expression evaluation*, anything under n8n's HTTP helper *sending*; *the node's own code* is its code at the top of the stack. The profiler adds its own cost; compare the columns, not these times with the table's.",
		'',
		`| What the process was doing, ms/item | ${keys.map((key) => NODES[key].label).join(' | ')} |`,
		`|---|${keys.map(() => '---:').join('|')}|`,
		...categories.map(
			(category) =>
				`| ${category} | ${keys.map((key) => cell(totals[key].byCategory[category] ?? 0)).join(' | ')} |`,
		),
		`| **While the node ran, in all** | ${keys.map((key) => `**${cell(totals[key].windowMs)}**`).join(' | ')} |`,
		'',
	].join('\n');
	console.log(text);
	mkdirSync(outDir, { recursive: true });
	writeFileSync(path.join(outDir, `profile-${version.replace(/\W+/g, '-')}.md`), text);
}
