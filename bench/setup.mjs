// What both benchmarks share: real n8n and this package in it through the
// project's n8n launcher (scripts/n8n/), the sandbox as its own
// process, the two credentials, and `n8n execute` of an imported workflow.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createHash } from 'node:crypto';

import { DEFAULT_N8N_VERSION, ROOT, n8nBin } from '../scripts/n8n/versions.mts';
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

/** The sandbox's arguments for `contacts` bulk contacts behind a limit of `rate` requests per second (burst `rate`). */
export const limitedSandboxArgs = (contacts, rate, retryAfter = 'seconds', headers) => [
	'--bulk-contacts',
	String(contacts),
	'--rate-limit',
	String(rate),
	'--burst',
	String(rate),
	'--retry-after',
	retryAfter,
	...(headers ? ['--rate-limit-headers', headers] : []),
];

/** "2 × AMD EPYC, 24 GiB, Linux 6.x": what the numbers were taken on. */
export function machine() {
	const cpus = os.cpus();
	return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`;
}

/** What every result file starts with: when, on which n8n, Node and machine. */
export const resultHeader = () => ({
	date: new Date().toISOString(),
	n8n: VERSION,
	node: process.version,
	machine: machine(),
});

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
		execFileSync('npm', ['run', '-s', 'build'], {
			cwd: root,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
		tarball = packPackage(work);
	}
	const tarballName = path.basename(tarball);
	await installPackage(path.join(work, 'user'), tarball);

	const sandbox = await startSandbox(['--port', '0', '--key', apiKey, ...sandboxArgs]);
	const sandboxUrl = sandbox.url;

	/** The sandbox's test routes, `body` sent as JSON. One retry: a kept-alive socket the sandbox closed while idle fails once. */
	async function control(route, method = 'GET', body = undefined, attempt = 1) {
		try {
			const init =
				body === undefined
					? { method }
					: { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
			const text = await (await fetch(`${sandboxUrl}/__sandbox/${route}`, init)).text();
			return text ? JSON.parse(text) : undefined;
		} catch (error) {
			if (attempt > 1) throw error;
			return await control(route, method, body, attempt + 1);
		}
	}

	const env = n8nEnv(path.join(work, 'user'), {
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
	});
	// n8n's own database settings, as users run it (2.x: a pool of 3 SQLite connections), not the
	// launcher's single connection: with one, 100 small executions queue every save behind each other.
	// BENCH_SQLITE_POOL_SIZE=1 runs the benchmarks as they ran before 2026-11-28.
	if (process.env.BENCH_SQLITE_POOL_SIZE)
		env.DB_SQLITE_POOL_SIZE = process.env.BENCH_SQLITE_POOL_SIZE;
	else delete env.DB_SQLITE_POOL_SIZE;
	await importCredentials(n8n, env, [
		{
			id: 'benchOutreach',
			name: 'Outreach (bench)',
			type: 'outreachSequencesApi',
			data: { apiKey, baseUrl: sandboxUrl },
		},
		{
			id: 'benchHeader',
			name: 'X-API-Key (bench)',
			type: 'httpHeaderAuth',
			data: { name: 'X-API-Key', value: apiKey },
		},
	]);

	return {
		n8n,
		work,
		env,
		sandboxUrl,
		control,
		tarballName,
		tarballKb: Number((statSync(tarball).size / 1024).toFixed(1)),
		/**
		 * Sets node `contender`'s row of workflow `workflowId` in n8n's store to BENCH_ROW_ENTRIES (150,000)
		 * marks of no item, so a run meets none of an earlier run's marks, at a full row.
		 */
		fillMemory(workflowId) {
			const database = new DatabaseSync(path.join(work, 'user', '.n8n', 'database.sqlite'));
			const entries = Number(process.env.BENCH_ROW_ENTRIES ?? 150_000);
			const data = Array.from({ length: entries }, (_, index) =>
				createHash('md5').update(`filler ${index}`).digest('base64'),
			);
			try {
				database.exec('PRAGMA busy_timeout = 10000');
				database.exec('DELETE FROM processed_data');
				if (entries > 0)
					database
						.prepare('INSERT INTO processed_data (workflowId, context, value) VALUES (?, ?, ?)')
						.run(workflowId, 'n:contender', JSON.stringify({ mode: 'entries', data }));
			} finally {
				database.close();
			}
		},
		/** Imports the workflows (each with its own `id`) in one n8n start. */
		importWorkflows: (workflows) => importWorkflows(n8n, env, workflows),
		/** `n8n start` with these workflows published; resolves once their webhooks answer. `log()`: its output so far. */
		async startServer(ids, webhookPaths) {
			for (const id of ids) await publishWorkflow(n8n, version, id, env);
			const port = await freePort();
			const server = startDaemon(n8n, ['start'], {
				...env,
				N8N_PORT: String(port),
				N8N_LOG_LEVEL: 'warn',
			});
			const url = `http://127.0.0.1:${port}`;
			for (const webhook of webhookPaths) {
				for (;;) {
					if (server.child.exitCode !== null) throw new Error(`n8n stopped:\n${server.log()}`);
					const status = await fetch(`${url}/webhook/${webhook}`, { method: 'POST' }).then(
						(response) => response.status,
						() => 0,
					);
					if (status !== 0 && status !== 404) break;
					await new Promise((resolve) => setTimeout(resolve, 500));
				}
			}
			return { url, stop: () => server.stop(), log: () => server.log() };
		},
		/**
		 * `n8n execute --id --rawOutput`, optionally under `/usr/bin/time`; resolves with stdout and the wall time.
		 * stdout goes to a file, not a pipe: through a pipe, a line from n8n's task runner (a child process on
		 * the same stdout) could land in the middle of tens of MB of run data, which then no longer parses.
		 */
		async execute(id, { peakRssFile } = {}) {
			const [command, args] = peakRssFile
				? [
						'/usr/bin/time',
						['-f', '%M', '-o', peakRssFile, n8n, 'execute', `--id=${id}`, '--rawOutput'],
					]
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
