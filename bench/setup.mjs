// What both benchmarks share: real n8n (installed into .cache/), this package
// installed from its tarball as a community package into a throwaway user
// folder, the sandbox as its own process, the two credentials, and
// `n8n execute` of an imported workflow.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export const root = path.resolve(import.meta.dirname, '..');
export const PACKAGE = 'n8n-nodes-outreach-sequences';
export const log = (text) => process.stderr.write(`${text}\n`);
export const slug = (text) => text.replace(/\W+/g, '-');

function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** "2 × AMD EPYC, 24 GiB, Linux 6.x": what the numbers were taken on. */
export function machine() {
	const cpus = os.cpus();
	return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`;
}

/**
 * Installs n8n `version` and the packed package, starts the sandbox with
 * `sandboxArgs`, and imports the credentials: `benchOutreach` (this node) and
 * `benchHeader` (the HTTP Request node's Header Auth), both with `apiKey`.
 */
export async function prepare({ version, apiKey, sandboxArgs = [], prefix }) {
	log(`Preparing n8n ${version} …`);
	execFileSync('bash', [path.join(root, 'scripts', 'install-n8n.sh'), version], { stdio: ['ignore', 'inherit', 'inherit'] });
	const n8n = path.join(root, '.cache', `n8n-${version}`, 'node_modules', '.bin', 'n8n');

	const work = mkdtempSync(path.join(os.tmpdir(), `outreach-${prefix}-`));
	execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
	const tarballName = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: root, encoding: 'utf8' }).trim();
	const tarball = path.join(work, tarballName);
	const nodesDir = path.join(work, 'user', '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
	execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: nodesDir, stdio: ['ignore', 'ignore', 'inherit'] });

	const sandbox = spawn(process.execPath, ['sandbox/cli.mts', '--port', '0', '--key', apiKey, ...sandboxArgs], {
		cwd: root,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const sandboxUrl = await new Promise((resolve, reject) => {
		readline.createInterface({ input: sandbox.stdout }).once('line', (line) => resolve(JSON.parse(line).url));
		sandbox.once('exit', (code) => reject(new Error(`The sandbox exited with ${code}`)));
	});
	process.on('exit', () => sandbox.kill());

	/** The sandbox's test routes. One retry: a kept-alive socket the sandbox closed while idle fails once. */
	async function control(route, method = 'GET', attempt = 1) {
		try {
			const text = await (await fetch(`${sandboxUrl}/__sandbox/${route}`, { method })).text();
			return text ? JSON.parse(text) : undefined;
		} catch (error) {
			if (attempt > 1) throw error;
			return await control(route, method, attempt + 1);
		}
	}

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

	writeFileSync(
		path.join(work, 'credentials.json'),
		JSON.stringify([
			{ id: 'benchOutreach', name: 'Outreach (bench)', type: 'outreachSequencesApi', data: { apiKey, baseUrl: sandboxUrl } },
			{ id: 'benchHeader', name: 'X-API-Key (bench)', type: 'httpHeaderAuth', data: { name: 'X-API-Key', value: apiKey } },
		]),
	);
	execFileSync(n8n, ['import:credentials', `--input=${path.join(work, 'credentials.json')}`], { env, stdio: 'ignore' });

	return {
		n8n,
		work,
		env,
		sandboxUrl,
		control,
		tarballName,
		tarballKb: Number((statSync(tarball).size / 1024).toFixed(1)),
		/** Imports the workflows (each with its own `id`) in one n8n start. */
		importWorkflows(workflows) {
			const folder = mkdtempSync(path.join(work, 'workflows-'));
			for (const workflow of workflows) writeFileSync(path.join(folder, `${workflow.id}.json`), JSON.stringify(workflow));
			execFileSync(n8n, ['import:workflow', '--separate', `--input=${folder}`], { env, stdio: 'ignore' });
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
		close() {
			sandbox.kill();
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
	type: `${PACKAGE}.outreachSequences`,
	typeVersion: 1,
	parameters,
	credentials: { outreachSequencesApi: { id: 'benchOutreach', name: 'Outreach (bench)' } },
});

/** The HTTP Request node (v4.2) with the Header Auth credential. */
export const httpNode = (parameters) => ({
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth', options: {}, ...parameters },
	credentials: { httpHeaderAuth: { id: 'benchHeader', name: 'X-API-Key (bench)' } },
});
