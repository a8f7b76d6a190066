// `npm run bench` (second part), or `npm run bench:rate-limit` alone: a service
// that allows R requests per second (burst R, 429 with Retry-After in seconds
// beyond that), and N items run as creates and as archives, side by side in
// one run, through real n8n with the package installed from its tarball:
// - this node on default settings (On Error = Continue, to count per item);
// - the HTTP Request node on default settings (On Error = Continue);
// - the HTTP Request node with Settings › Retry On Fail (5 tries, 5 s apart),
//   which acts only with On Error = Stop, so that is how it runs.
// Reported per run: items that came out as successes, what the service did
// (requests, 429s, creates, the same request carried out twice), and the
// node's time as a multiple of the ideal N ÷ R. Writes bench/rate-limit.md,
// bench/rate-limit-<n8n>.json and bench/rate-limit-<n8n>.svg.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

import { resultDataOf } from '../scripts/run-data.cjs';

const root = path.resolve(import.meta.dirname, '..');
const version = process.env.BENCH_N8N ?? '2.41.1';
const N = Number(process.env.BENCH_RATE_ITEMS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const outDir = path.resolve(root, process.env.BENCH_OUT ?? 'bench');
const apiKey = 'bench-rate-key-2b7e91';
const log = (text) => process.stderr.write(`${text}\n`);

const n8n = path.join(root, '.cache', `n8n-${version}`, 'node_modules', '.bin', 'n8n');
execFileSync('bash', [path.join(root, 'scripts', 'install-n8n.sh'), version], { stdio: 'inherit' });
const work = mkdtempSync(path.join(os.tmpdir(), 'outreach-bench-rate-'));
const tarball = path.join(work, execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: root, encoding: 'utf8' }).trim());
const nodesDir = path.join(work, 'user', '.n8n', 'nodes');
mkdirSync(nodesDir, { recursive: true });
writeFileSync(path.join(nodesDir, 'package.json'), '{"name":"installed-nodes","private":true}');
execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: nodesDir, stdio: ['ignore', 'ignore', 'inherit'] });

const sandbox = spawn(
	process.execPath,
	['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'sandbox/cli.ts', '--port', '0', '--key', apiKey, '--bulk-contacts', String(N), '--rate-limit', String(RATE), '--burst', String(RATE), '--retry-after', 'seconds'],
	{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
const sandboxUrl = await new Promise((resolve, reject) => {
	readline.createInterface({ input: sandbox.stdout }).once('line', (line) => resolve(JSON.parse(line).url));
	sandbox.once('exit', (code) => reject(new Error(`The sandbox exited with ${code}`)));
});
process.on('exit', () => sandbox.kill());
const control = async (route, method = 'GET') => {
	const text = await (await fetch(`${sandboxUrl}/__sandbox/${route}`, { method })).text();
	return text ? JSON.parse(text) : undefined;
};

const freePort = () =>
	new Promise((resolve) => {
		const server = net.createServer().listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
const { NODE_ENV: _ignored, ...inherited } = process.env;
const env = {
	...inherited,
	N8N_USER_FOLDER: path.join(work, 'user'),
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	DB_SQLITE_POOL_SIZE: '1',
	N8N_RUNNERS_BROKER_PORT: String(await freePort()),
};

const workloads = [
	{
		name: 'create sequence',
		ours: { resource: 'sequence', operation: 'create', name: "={{ 'Sequence ' + $json.n }}" },
		http: { method: 'POST', url: `${sandboxUrl}/v1/sequences`, sendBody: true, contentType: 'json', specifyBody: 'json', jsonBody: '={ "name": "Sequence {{ $json.n }}" }' },
	},
	{
		name: 'archive contact',
		ours: { resource: 'contact', operation: 'archive', contactId: '={{ $json.id }}' },
		http: { method: 'POST', url: `=${sandboxUrl}/v1/contacts/{{ $json.id }}/archive` },
	},
];
const contenders = [
	{ key: 'ours', label: 'This node, default settings', onError: 'continueRegularOutput' },
	{ key: 'http', label: 'HTTP Request node, default settings', onError: 'continueRegularOutput' },
	{ key: 'retry', label: 'HTTP Request node, Retry On Fail (5 tries, 5 s)', onError: 'stopWorkflow', retryOnFail: true, maxTries: 5, waitBetweenTries: 5000 },
];

const slug = (text) => text.replace(/\W+/g, '-');
const workflowId = (contender, workload) => `rate-${contender.key}-${slug(workload.name)}`;

function workflow(contender, workload) {
	const node = {
		id: 'contender',
		name: 'Contender',
		position: [440, 0],
		onError: contender.onError,
		...(contender.retryOnFail ? { retryOnFail: true, maxTries: contender.maxTries, waitBetweenTries: contender.waitBetweenTries } : {}),
		...(contender.key === 'ours'
			? {
					type: 'n8n-nodes-outreach-sequences.outreachSequences',
					typeVersion: 1,
					parameters: workload.ours,
					credentials: { outreachSequencesApi: { id: 'benchOutreach', name: 'Outreach (bench)' } },
				}
			: {
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					parameters: { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth', options: {}, ...workload.http },
					credentials: { httpHeaderAuth: { id: 'benchHeader', name: 'X-API-Key (bench)' } },
				}),
	};
	const items = {
		id: 'items',
		name: 'Items',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [220, 0],
		parameters: { jsCode: `return Array.from({ length: ${N} }, (_, index) => ({ json: { id: 'bulk-' + index, n: index } }));` },
	};
	const id = workflowId(contender, workload);
	return {
		id,
		name: id,
		active: false,
		nodes: [{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }, items, node],
		connections: { Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] }, Items: { main: [[{ node: 'Contender', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

writeFileSync(
	path.join(work, 'credentials.json'),
	JSON.stringify([
		{ id: 'benchOutreach', name: 'Outreach (bench)', type: 'outreachSequencesApi', data: { apiKey, baseUrl: sandboxUrl } },
		{ id: 'benchHeader', name: 'X-API-Key (bench)', type: 'httpHeaderAuth', data: { name: 'X-API-Key', value: apiKey } },
	]),
);
execFileSync(n8n, ['import:credentials', `--input=${path.join(work, 'credentials.json')}`], { env, stdio: 'ignore' });
mkdirSync(path.join(work, 'workflows'));
for (const workload of workloads) {
	for (const contender of contenders) {
		writeFileSync(path.join(work, 'workflows', `${workflowId(contender, workload)}.json`), JSON.stringify(workflow(contender, workload)));
	}
}
execFileSync(n8n, ['import:workflow', '--separate', `--input=${path.join(work, 'workflows')}`], { env, stdio: 'ignore' });

async function run(contender, workload) {
	await control('reset', 'POST');
	const started = process.hrtime.bigint();
	const stdout = await new Promise((resolve, reject) => {
		const child = spawn(n8n, ['execute', `--id=${workflowId(contender, workload)}`, '--rawOutput'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
		const chunks = [];
		child.stdout.on('data', (chunk) => chunks.push(chunk));
		child.stderr.resume();
		child.once('error', reject);
		child.once('exit', () => resolve(Buffer.concat(chunks).toString('utf8')));
	});
	const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
	const data = resultDataOf(stdout);
	const task = data.runData.Contender?.[0];
	const items = task?.data?.main?.[0] ?? [];
	const succeeded = items.filter((item) => !(item.json ?? item).error).length;
	const service = await control('summary');
	const seconds = task?.executionTime === undefined ? wallSeconds : task.executionTime / 1000;
	return {
		workload: workload.name,
		contender: contender.label,
		key: contender.key,
		succeeded,
		nodeFailed: Boolean(data.error),
		requests: service.requests,
		rejected: service.byStatus['429'] ?? 0,
		created: service.sequencesCreated,
		duplicates: workload.name === 'create sequence' ? service.duplicateNames : service.repeatedSuccesses,
		seconds,
		ofIdeal: seconds / (N / RATE),
	};
}

const rows = [];
for (const workload of workloads) {
	for (const contender of contenders) {
		const row = await run(contender, workload);
		rows.push(row);
		log(`${workload.name} · ${contender.label}: ${row.succeeded}/${N} succeeded, ${row.duplicates} duplicates, ${row.rejected} rejected, ${row.seconds.toFixed(1)} s (${row.ofIdeal.toFixed(2)} × ideal)`);
	}
}

// ── report ──────────────────────────────────────────────────────────────────
const cpus = os.cpus();
const tag = version.replace(/\W+/g, '-');
const result = {
	date: new Date().toISOString(),
	n8n: version,
	node: process.version,
	machine: `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
	items: N,
	rate: RATE,
	burst: RATE,
	idealSeconds: N / RATE,
	rows,
};
const pct = (part) => `${((100 * part) / N).toFixed(1)}%`;
const table = [
	'| Workload | Contender | Items succeeded | Duplicates | Requests rejected (429) | Requests in all | Time, s | Time ÷ ideal |',
	'|---|---|---:|---:|---:|---:|---:|---:|',
	...rows.map(
		(row) =>
			`| ${row.workload} | ${row.contender} | ${row.succeeded.toLocaleString('en-US')} (${pct(row.succeeded)})${row.nodeFailed ? ', node failed' : ''} | ${row.duplicates.toLocaleString('en-US')} | ${row.rejected.toLocaleString('en-US')} (${pct(row.rejected)}) | ${row.requests.toLocaleString('en-US')} | ${row.seconds.toFixed(1)} | ${row.ofIdeal.toFixed(2)}× |`,
	),
].join('\n');
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, `rate-limit-${tag}.json`), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(path.join(outDir, `rate-limit-${tag}.svg`), chart(result));
writeFileSync(
	path.join(outDir, 'rate-limit.md'),
	`# Rate-limited benchmark

Written by \`npm run bench\` (\`bench/rate-limit.mjs\`). The sandbox allows ${RATE} requests per second (a token bucket with a burst of ${RATE}), and answers 429 with \`Retry-After\` in seconds beyond that. ${N.toLocaleString('en-US')} items run through \`n8n execute\` in real n8n ${version}, each contender in turn in one run. The ideal time is N ÷ R = ${N / RATE} s. *Time* is the node's own \`executionTime\`, waits and tries included. *Duplicates*: for creates, sequences the service created more than once under the same name; for archives, the same archive carried out more than once.

- Date: ${result.date}
- Machine: ${result.machine}; Node.js ${result.node}

![Rate-limited: items succeeded and time ÷ ideal](rate-limit-${tag}.svg)

${table}
`,
);
console.log(table);
sandbox.kill();
rmSync(work, { recursive: true, force: true });

/** Two bars per run: the share of items that succeeded, and time ÷ ideal. */
function chart(data) {
	const width = 760;
	const rowHeight = 34;
	const top = 50;
	const left = 330;
	const scale = 360;
	const maxRatio = Math.max(2, ...data.rows.map((row) => row.ofIdeal));
	const bars = data.rows
		.map((row, index) => {
			const y = top + index * rowHeight;
			const share = row.succeeded / data.items;
			const ratio = Math.min(row.ofIdeal, maxRatio) / maxRatio;
			const colour = row.key === 'ours' ? '#ea4b71' : '#8a8f98';
			return [
				`<text x="${left - 8}" y="${y + 11}" text-anchor="end" font-size="12">${row.workload} · ${row.contender.replace(/&/g, '&amp;')}</text>`,
				`<rect x="${left}" y="${y}" width="${(share * scale).toFixed(1)}" height="12" fill="${colour}"/>`,
				`<text x="${left + share * scale + 4}" y="${y + 10}" font-size="11">${(100 * share).toFixed(1)}% succeeded, ${row.duplicates} duplicates</text>`,
				`<rect x="${left}" y="${y + 14}" width="${(ratio * scale).toFixed(1)}" height="8" fill="${colour}" opacity="0.45"/>`,
				`<text x="${left + ratio * scale + 4}" y="${y + 22}" font-size="10">${row.ofIdeal.toFixed(2)}× ideal time</text>`,
			].join('');
		})
		.join('\n');
	const height = top + data.rows.length * rowHeight + 20;
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="20" y="24" font-size="15" font-weight="bold">${data.items.toLocaleString('en-US')} items against a service that allows ${data.rate} requests per second (n8n ${data.n8n})</text>
<text x="20" y="40" font-size="11">Solid: share of items that succeeded. Light: time as a multiple of the ideal N ÷ R (${data.idealSeconds} s).</text>
${bars}
</svg>
`;
}
