// What both benchmarks share: real n8n and this package in it through the
// project's n8n launcher (scripts/n8n/), the sandbox as its own
// process, the two credentials, and `n8n execute` of an imported workflow.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DEFAULT_N8N_VERSION, NODE_TYPE, ROOT, n8nBin } from '../scripts/n8n/versions.mts';
import { installN8n } from '../scripts/n8n/install.mts';
import {
	importCredentials,
	importWorkflows,
	installPackage,
	n8nEnv,
	packPackage,
	publishWorkflow,
} from '../scripts/n8n/user-folder.mts';
import { freePort, startDaemon, startSandbox } from '../scripts/n8n/processes.mts';
import { resultDataOf } from '../scripts/n8n/cli.mts';

export const root = ROOT;
export const log = (text) => process.stderr.write(`${text}\n`);
export const slug = (text) => text.replace(/\W+/g, '-');
/** BENCH_N8N: the n8n version to run; BENCH_OUT: the folder results go to (bench/). */
export const VERSION = process.env.BENCH_N8N ?? DEFAULT_N8N_VERSION;
export const OUT_DIR = path.resolve(ROOT, process.env.BENCH_OUT ?? 'bench');

/** "2 × AMD EPYC, 24 GiB, Linux 6.x": what the numbers were taken on. */
export function machine() {
	const cpus = os.cpus();
	return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`;
}

/** What every result file starts with: when, on which n8n, Node and machine. */
export const resultHeader = () => ({ date: new Date().toISOString(), n8n: VERSION, node: process.version, machine: machine() });

/**
 * Installs n8n `version` and the packed package (`tarball`, else BENCH_PACKAGE, else this checkout's build), starts the sandbox with
 * `sandboxArgs`, and imports the credentials: `benchOutreach` (this node) and
 * `benchHeader` (the HTTP Request node's Header Auth), both with `apiKey`.
 */
export async function prepare({ version, apiKey, sandboxArgs = [], prefix, tarball: given }) {
	log(`Preparing n8n ${version} …`);
	const n8n = n8nBin(await installN8n(version, { log }));

	const work = mkdtempSync(path.join(os.tmpdir(), `outreach-${prefix}-`));
	// BENCH_PACKAGE=<tarball>: another build of the package, to compare (an earlier commit's `npm pack`).
	// `tarball`: a build a part runs beside this checkout's.
	let tarball = given ?? process.env.BENCH_PACKAGE;
	if (tarball) log(`Installing ${tarball}, not this checkout's build`);
	else {
		execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
		tarball = packPackage(work);
	}
	const tarballName = path.basename(tarball);
	await installPackage(path.join(work, 'user'), tarball);

	const sandbox = await startSandbox(['--port', '0', '--key', apiKey, ...sandboxArgs]);
	const sandboxUrl = sandbox.url;

	/** The sandbox's test routes, `body` sent as JSON. One retry: a kept-alive socket the sandbox closed while idle fails once. */
	async function control(route, method = 'GET', body = undefined, attempt = 1) {
		try {
			const init = body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
			const text = await (await fetch(`${sandboxUrl}/__sandbox/${route}`, init)).text();
			return text ? JSON.parse(text) : undefined;
		} catch (error) {
			if (attempt > 1) throw error;
			return await control(route, method, body, attempt + 1);
		}
	}

	const env = n8nEnv(path.join(work, 'user'), { N8N_RUNNERS_BROKER_PORT: String(await freePort()) });
	await importCredentials(n8n, env, [
		{ id: 'benchOutreach', name: 'Outreach (bench)', type: 'outreachSequencesApi', data: { apiKey, baseUrl: sandboxUrl } },
		{ id: 'benchHeader', name: 'X-API-Key (bench)', type: 'httpHeaderAuth', data: { name: 'X-API-Key', value: apiKey } },
	]);

	return {
		n8n,
		work,
		env,
		sandboxUrl,
		control,
		tarballName,
		tarballKb: Number((statSync(tarball).size / 1024).toFixed(1)),
		/** Imports the workflows (each with its own `id`) in one n8n start. */
		importWorkflows: (workflows) => importWorkflows(n8n, env, workflows),
		/** `n8n start` with these workflows published; resolves once their webhooks answer. */
		async startServer(ids, webhookPaths) {
			for (const id of ids) await publishWorkflow(n8n, version, id, env);
			const port = await freePort();
			const server = startDaemon(n8n, ['start'], { ...env, N8N_PORT: String(port), N8N_LOG_LEVEL: 'warn' });
			const url = `http://127.0.0.1:${port}`;
			for (const webhook of webhookPaths) {
				for (;;) {
					if (server.child.exitCode !== null) throw new Error(`n8n stopped:\n${server.log()}`);
					const status = await fetch(`${url}/webhook/${webhook}`, { method: 'POST' }).then((response) => response.status, () => 0);
					if (status !== 0 && status !== 404) break;
					await new Promise((resolve) => setTimeout(resolve, 500));
				}
			}
			return { url, stop: () => server.stop() };
		},
		/**
		 * `n8n execute --id --rawOutput`, optionally under `/usr/bin/time`; resolves with stdout and the wall time.
		 * stdout goes to a file, not a pipe: through a pipe, a line from n8n's task runner (a child process on
		 * the same stdout) could land in the middle of tens of MB of run data, which then no longer parses.
		 */
		async execute(id, { peakRssFile } = {}) {
			const [command, args] = peakRssFile
				? ['/usr/bin/time', ['-f', '%M', '-o', peakRssFile, n8n, 'execute', `--id=${id}`, '--rawOutput']]
				: [n8n, ['execute', `--id=${id}`, '--rawOutput']];
			const outFile = path.join(work, 'stdout.txt');
			const out = openSync(outFile, 'w');
			const started = process.hrtime.bigint();
			await new Promise((resolve, reject) => {
				const child = spawn(command, args, { env, stdio: ['ignore', out, 'pipe'] });
				child.stderr.resume();
				child.once('error', reject);
				child.once('exit', resolve);
			});
			const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
			closeSync(out);
			const stdout = readFileSync(outFile, 'utf8');
			rmSync(outFile);
			return { stdout, wallMs };
		},
		/**
		 * Executes workflow `id` and reads its Contender node: the items out, how many succeeded, whether the
		 * node failed, and its time in seconds (its `executionTime`, or the whole process's when it has none).
		 */
		async runContender(id) {
			const { stdout, wallMs } = await this.execute(id);
			const data = resultDataOf(stdout);
			const task = data.runData?.Contender?.[0];
			const items = task?.data?.main?.[0] ?? [];
			return {
				items,
				succeeded: items.filter((item) => !(item.json ?? item).error).length,
				nodeFailed: Boolean(data.error),
				seconds: (task?.executionTime ?? wallMs) / 1000,
				wallSeconds: wallMs / 1000,
			};
		},
		async close() {
			await sandbox.daemon.stop();
			rmSync(work, { recursive: true, force: true });
		},
	};
}

/** Manual Trigger → Code node making `count` items (`jsItem` is the item's JS expression over `index`) → the contender node. */
export function benchWorkflow(id, count, jsItem, contender) {
	return {
		id,
		name: id,
		active: false,
		nodes: [
			{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'items',
				name: 'Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: `return Array.from({ length: ${count} }, (_, index) => ({ json: ${jsItem} }));` },
			},
			{ id: 'contender', name: 'Contender', position: [440, 0], ...contender },
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Contender', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** This node as a workflow node, with the bench credential. */
export const oursNode = (parameters) => ({
	type: NODE_TYPE,
	typeVersion: 1,
	parameters,
	credentials: { outreachSequencesApi: { id: 'benchOutreach', name: 'Outreach (bench)' } },
});

/**
 * The contenders most parts run side by side: this node on default settings, the HTTP Request node on
 * default settings (both with On Error = Continue, to count items), and the HTTP Request node with
 * Settings › Retry On Fail (5 tries, 5 s apart), which acts only with On Error = Stop.
 */
export const CONTENDERS = [
	{ key: 'ours', label: 'This node, default settings', onError: 'continueRegularOutput' },
	{ key: 'http', label: 'HTTP Request node, default settings', onError: 'continueRegularOutput' },
	{ key: 'retry', label: 'HTTP Request node, Retry On Fail (5 tries, 5 s)', onError: 'stopWorkflow', settings: { retryOnFail: true, maxTries: 5, waitBetweenTries: 5000 } },
];

/** A contender's node for `workload` (`{ ours, http }` parameters), with its On Error and its settings. */
export function contenderNode(contender, workload) {
	const node = contender.key === 'ours' ? oursNode(workload.ours) : httpNode(workload.http);
	return { ...node, onError: contender.onError, ...contender.settings };
}

/** Creates of a sequence named `<prefix> <n>` from input items `{ n }`, as each node is configured; `extra` adds parameters. */
export const namedCreate = (sandboxUrl, prefix, extra = { ours: {}, http: {} }) => ({
	name: 'create sequence',
	ours: { resource: 'sequence', operation: 'create', name: `={{ '${prefix} ' + $json.n }}`, ...extra.ours },
	http: { method: 'POST', url: `${sandboxUrl}/v1/sequences`, sendBody: true, contentType: 'json', specifyBody: 'json', jsonBody: `={ "name": "${prefix} {{ $json.n }}" }`, ...extra.http },
});

/** The HTTP Request node (v4.2) with the Header Auth credential. */
export const httpNode = (parameters) => ({
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth', options: {}, ...parameters },
	credentials: { httpHeaderAuth: { id: 'benchHeader', name: 'X-API-Key (bench)' } },
});

// ── the workloads of `npm run bench`, as each contender is configured ───────
const SCHEDULES = [
	{ dayOffset: 0, hour: 9, minute: 30, delayInMinutes: 0, sequenceScripts: ['phone-1'] },
	{ dayOffset: 1, hour: 14, minute: 0, delayInMinutes: 15, sequenceScripts: ['email-1', 'txt-1'] },
	{ dayOffset: 3, hour: 10, minute: 5, delayInMinutes: 0, sequenceScripts: ['blast-1'] },
];
const TIMEZONE = 'Europe/Berlin';

/**
 * Archive contact, get use case and create sequence against `sandboxUrl`: each with this node's
 * parameters (`ours`), the HTTP Request node's (`http`), the floor's request for an input item, and the
 * identifier a success carries (undefined: a new `seq-…`). Input items are `{ id: 'bulk-<n>', useCase, n }`.
 */
export const benchWorkloads = (sandboxUrl) => [
	{
		name: 'archive contact',
		ours: { resource: 'contact', operation: 'archive', contactId: '={{ $json.id }}' },
		http: { method: 'POST', url: `=${sandboxUrl}/v1/contacts/{{ $json.id }}/archive` },
		floor: (item) => ({ method: 'POST', url: `${sandboxUrl}/v1/contacts/${encodeURIComponent(item.id)}/archive` }),
		expectedId: (item) => item.id,
	},
	{
		name: 'get use case',
		ours: { resource: 'useCase', operation: 'get', useCaseId: '={{ $json.useCase }}' },
		http: { method: 'GET', url: `=${sandboxUrl}/v1/use_cases/{{ $json.useCase }}` },
		floor: (item) => ({ method: 'GET', url: `${sandboxUrl}/v1/use_cases/${encodeURIComponent(item.useCase)}` }),
		expectedId: (item) => item.useCase,
	},
	{
		name: 'create sequence',
		ours: {
			resource: 'sequence',
			operation: 'create',
			name: "={{ 'Sequence ' + $json.n }}",
			additionalFields: { timezone: TIMEZONE },
			schedules: { schedule: SCHEDULES.map((row) => ({ ...row, sequenceScripts: row.sequenceScripts.join(', ') })) },
		},
		http: {
			method: 'POST',
			url: `${sandboxUrl}/v1/sequences`,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: `={ "name": "Sequence {{ $json.n }}", "timezone": "${TIMEZONE}", "schedules": ${JSON.stringify(SCHEDULES)} }`,
		},
		floor: (item) => ({
			method: 'POST',
			url: `${sandboxUrl}/v1/sequences`,
			body: JSON.stringify({ name: `Sequence ${item.n}`, timezone: TIMEZONE, schedules: SCHEDULES }),
		}),
		expectedId: undefined,
	},
];
