// Real n8n for this project: the one place that installs an n8n version,
// packs this package and installs it into a user folder as n8n's
// community-package installer does, imports credentials and workflows, and
// runs the n8n CLI or an n8n process. `npm start` uses it; so can anything
// else that needs a real n8n.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { signalGroup, stopGroup } from './process-groups.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PACKAGE_NAME = 'n8n-nodes-outreach-sequences';
/** The node's type once n8n has installed the package. */
export const NODE_TYPE = `${PACKAGE_NAME}.outreachSequences`;

/** The n8n `npm start` and the tests use unless told otherwise: the newest 2.x this registry installs. */
export const DEFAULT_N8N_VERSION = '2.41.1';
/** The maintained 1.x line, which the end-to-end suites run too. */
export const MAINTAINED_N8N_VERSION = '1.123.81';
/** Where each was tested: README › Compatibility. */
export const TESTED_N8N_VERSIONS = [DEFAULT_N8N_VERSION, MAINTAINED_N8N_VERSION, '2.0.3', '1.85.4'];

/**
 * This registry serves neither cssom-based linkedom's newest release nor the
 * xlsx tarball n8n 1.x names; these versions of them install.
 */
const N8N_OVERRIDES = { linkedom: '0.18.14', xlsx: '0.18.5' };

/** A step that failed, in a line or two; `output` keeps everything the command printed. */
export class LaunchError extends Error {
	readonly output: string;

	constructor(message: string, output = '') {
		super(message);
		this.output = output;
	}
}

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/** .cache/n8n-<version>, or .cache/n8n-<version>-node<major> for n8n run by another Node (`nodeBin`). */
export function n8nInstallDir(version: string, nodeBin?: string): string {
	const suffix = nodeBin ? `-node${major(execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim())}` : '';
	return path.join(ROOT, '.cache', `n8n-${version}${suffix}`);
}

/** The n8n executable of an install folder. */
export const n8nBin = (dir: string) => path.join(dir, 'node_modules', '.bin', 'n8n');

const isInstalled = (dir: string) => existsSync(n8nBin(dir)) && existsSync(path.join(dir, '.ready'));

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** "1 min 05 s", "42 s" */
export function elapsed(ms: number): string {
	const seconds = Math.round(ms / 1000);
	return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

function countPackages(dir: string): number {
	const modules = path.join(dir, 'node_modules');
	let count = 0;
	try {
		for (const name of readdirSync(modules)) {
			if (name.startsWith('.')) continue;
			count += name.startsWith('@') ? readdirSync(path.join(modules, name)).length : 1;
		}
	} catch {
		// not created yet
	}
	return count;
}

/** The last lines a failed npm printed that say why, without its log-file hints. */
function npmReason(output: string): string {
	const lines = output
		.split('\n')
		.map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim())
		.filter((line) => line && !/complete log of this run|A complete log|^code E|^\s*at /.test(line));
	return lines.slice(-3).join(' ');
}

/** Runs `npm` to the end with its output kept; throws LaunchError with npm's reason on failure. */
function npm(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; what: string }): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.once('error', reject);
		child.once('exit', (code, signal) => {
			if (code === 0) resolve();
			else reject(new LaunchError(`${options.what} failed${signal ? ` (${signal})` : ''}: ${npmReason(output) || `npm exited with ${code}`}`));
		});
	});
}

export interface InstallOptions {
	/** Run n8n with this Node binary (older 1.x refuses Node 24); sqlite3 is built for it. */
	nodeBin?: string;
	/** Progress lines. */
	log?: (line: string) => void;
}

/**
 * Installs n8n `version` into .cache/ once and returns its folder. It is
 * installed into a folder of its own and moved into place when complete, so
 * an install that fails or is stopped leaves nothing half-made. Install
 * scripts are skipped (a Kafka addon would download a binary); sqlite3 is
 * then built for the Node that runs n8n. Installs of the same version wait
 * for each other.
 */
export async function installN8n(version: string, options: InstallOptions = {}): Promise<string> {
	const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
	const dir = n8nInstallDir(version, options.nodeBin);
	if (isInstalled(dir)) return dir;
	mkdirSync(path.dirname(dir), { recursive: true });

	const lock = `${dir}.lock`;
	for (;;) {
		try {
			writeFileSync(lock, String(process.pid), { flag: 'wx' });
			break;
		} catch {
			const holder = Number(readFileSync(lock, 'utf8'));
			if (!holder || !alive(holder)) {
				rmSync(lock, { force: true });
				continue;
			}
			await sleep(1000);
			if (isInstalled(dir)) return dir;
		}
	}
	const partial = `${dir}.partial`;
	const release = () => {
		rmSync(partial, { recursive: true, force: true });
		rmSync(lock, { force: true });
	};
	try {
		if (isInstalled(dir)) return dir;
		// What an earlier install that was stopped left behind.
		rmSync(partial, { recursive: true, force: true });
		rmSync(dir, { recursive: true, force: true });
		checkN8nVersion(version, log);

		mkdirSync(partial, { recursive: true });
		writeFileSync(
			path.join(partial, 'package.json'),
			JSON.stringify({ name: `n8n-install-${version}`, private: true, dependencies: { n8n: version }, overrides: N8N_OVERRIDES }, null, 2),
		);
		const started = Date.now();
		log(`  Installing n8n ${version} into .cache/${path.basename(dir)}: about 6 minutes and 3 GB of disk, once.`);
		const progress = setInterval(() => {
			const count = countPackages(partial);
			const state = count === 0 ? 'npm is resolving its dependencies' : `${count} packages in place`;
			log(`  … n8n ${version}: ${state}, ${elapsed(Date.now() - started)} so far`);
		}, 20_000);
		try {
			await npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
				cwd: partial,
				what: `Installing n8n ${version}`,
			});
		} catch (error) {
			throw new LaunchError(`${(error as Error).message}\n  ${testedVersionsText()}`);
		} finally {
			clearInterval(progress);
		}
		const env = { ...process.env };
		// The headers to build against. sqlite3's own node-gyp reads them only
		// from npm_config_nodedir, and without them it downloads headers, which
		// fails offline. (npm's warning about that variable stays in this
		// command's captured output.) The Node that runs n8n: Node 24 (its
		// headers, scripts/dev.mjs), or another (the user's npm config nodedir).
		const nodedir = options.nodeBin ? process.env.OUTREACH_NPMRC_NODEDIR : env.npm_package_config_node_gyp_nodedir;
		if (nodedir) env.npm_config_nodedir = nodedir;
		if (options.nodeBin) {
			delete env.npm_package_config_node_gyp_nodedir;
			env.PATH = `${path.dirname(options.nodeBin)}${path.delimiter}${env.PATH ?? ''}`;
		}
		log(`  Building sqlite3 for the Node that runs n8n …`);
		await npm(['rebuild', 'sqlite3', '--loglevel=error'], { cwd: partial, env, what: 'Building sqlite3' });
		writeFileSync(path.join(partial, '.ready'), `${new Date().toISOString()}\n`);
		renameSync(partial, dir);
		log(`  n8n ${version} installed in ${elapsed(Date.now() - started)}.`);
		return dir;
	} finally {
		release();
	}
}

/**
 * Fails, naming the tested versions, when `version` is not installed and not
 * on the npm registry; says so when it is not a tested one.
 */
export function checkN8nVersion(version: string, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
	if (isInstalled(n8nInstallDir(version))) return;
	const known = spawnSync('npm', ['view', `n8n@${version}`, 'version', '--json'], { cwd: tmpdir(), encoding: 'utf8' });
	if (known.status !== 0 || !known.stdout.includes(`"${version}"`)) {
		throw new LaunchError(`There is no n8n ${version} on the npm registry. ${testedVersionsText()}`);
	}
	if (!TESTED_N8N_VERSIONS.includes(version)) log(`  n8n ${version} is not a tested version; trying it anyway. ${testedVersionsText()}`);
}

export function testedVersionsText(): string {
	return `Tested versions: ${TESTED_N8N_VERSIONS.map((version) => (version === DEFAULT_N8N_VERSION ? `${version} (the default)` : version)).join(', ')} (README › Compatibility). Set N8N_VERSION to one of them, or leave it unset.`;
}

/** `npm pack` of the built package into `destination`; returns the tarball's path. */
export function packPackage(destination = mkdtempSync(path.join(tmpdir(), 'outreach-pack-'))): string {
	const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], { cwd: ROOT, encoding: 'utf8' }).trim();
	return path.join(destination, name);
}

/**
 * Installs the tarball into <userFolder>/.n8n/nodes with `npm install`,
 * which is what n8n's community-package installer runs.
 */
export async function installPackage(userFolder: string, tarball: string): Promise<void> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	const manifest = path.join(nodesDir, 'package.json');
	if (!existsSync(manifest)) writeFileSync(manifest, JSON.stringify({ name: 'installed-nodes', private: true }, null, 2));
	await npm(['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: nodesDir, what: `Installing ${path.basename(tarball)}` });
	if (!existsSync(path.join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'))) {
		throw new LaunchError(`npm install did not install ${PACKAGE_NAME} into ${nodesDir}`);
	}
}

/** n8n's environment for a user folder: no telemetry, no update checks, SQLite with one connection. */
export function n8nEnv(userFolder: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	// Jest sets NODE_ENV=test, which silences n8n's CLI output; users' n8n runs without it.
	const { NODE_ENV: _nodeEnv, JEST_WORKER_ID: _worker, ...inherited } = process.env;
	return {
		...inherited,
		N8N_USER_FOLDER: userFolder,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		DB_SQLITE_POOL_SIZE: '1',
		...extra,
	};
}

export interface CliResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

/**
 * Runs one n8n CLI command to the end. Its stdout goes to a file, not a pipe:
 * through a pipe, the megabytes of run data that `n8n execute --rawOutput`
 * prints came back cut short, or with a task runner's line inside.
 */
export function n8nCli(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
	const folder = mkdtempSync(path.join(tmpdir(), 'outreach-n8n-cli-'));
	const file = path.join(folder, 'stdout.txt');
	const out = openSync(file, 'w');
	return new Promise<CliResult>((resolve, reject) => {
		const child = spawn(bin, args, { env, stdio: ['ignore', out, 'pipe'] });
		let stderr = '';
		child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.once('error', reject);
		child.once('exit', (code) => resolve({ code, stdout: readFileSync(file, 'utf8'), stderr }));
	}).finally(() => {
		closeSync(out);
		rmSync(folder, { recursive: true, force: true });
	});
}

const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * What n8n said when a command failed, in a line or two: its own last
 * messages, without colours or the stack frames of a Node error.
 */
export function n8nReason(result: CliResult): string {
	const lines = `${result.stdout}\n${result.stderr}`
		.split('\n')
		.map((line) => line.replace(ANSI_COLOUR, '').trim())
		.filter((line) => line !== '' && !/^at\s/.test(line) && !/^\^+$/.test(line));
	return lines.length ? lines.slice(-2).join(' ') : `exit code ${result.code}`;
}

/** n8n CLI command that must succeed: a failure is a LaunchError with n8n's own words. */
export async function n8nCliOk(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
	const result = await n8nCli(bin, args, env);
	if (result.code !== 0) throw new LaunchError(`n8n ${args[0]} failed: ${n8nReason(result)}`, `${result.stdout}\n${result.stderr}`);
	return result;
}

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** Imports credentials, replacing those with the same ids. */
export async function importCredentials(bin: string, env: NodeJS.ProcessEnv, credentials: StoredCredential[]): Promise<void> {
	const folder = mkdtempSync(path.join(tmpdir(), 'outreach-credentials-'));
	try {
		const file = path.join(folder, 'credentials.json');
		writeFileSync(file, JSON.stringify(credentials));
		await n8nCliOk(bin, ['import:credentials', `--input=${file}`], env);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

/** Whether an n8n version publishes workflows (2.x) rather than activating them (1.x). */
const publishes = (version: string) => major(version) >= 2;

/** Makes an imported workflow's triggers live: `publish:workflow` on 2.x, `update:workflow --active=true` on 1.x. */
export async function publishWorkflow(bin: string, version: string, id: string, env: NodeJS.ProcessEnv): Promise<void> {
	const args = publishes(version) ? ['publish:workflow', `--id=${id}`] : ['update:workflow', `--id=${id}`, '--active=true'];
	await n8nCliOk(bin, args, env);
}

/** Takes a workflow's triggers down again: `unpublish:workflow` on 2.x, `update:workflow --active=false` on 1.x. */
export async function unpublishWorkflow(bin: string, version: string, id: string, env: NodeJS.ProcessEnv): Promise<void> {
	const args = publishes(version) ? ['unpublish:workflow', `--id=${id}`] : ['update:workflow', `--id=${id}`, '--active=false'];
	await n8nCliOk(bin, args, env);
}

/** The example workflows `npm start` imports: examples/*.workflow.json. */
export function exampleWorkflowFiles(): string[] {
	const dir = path.join(ROOT, 'examples');
	return readdirSync(dir)
		.filter((file) => file.endsWith('.workflow.json'))
		.map((file) => path.join(dir, file));
}

/** Imports workflows (files, or workflow objects), each replacing the workflow with the same id. */
export async function importWorkflows(bin: string, env: NodeJS.ProcessEnv, workflows: Array<string | object>): Promise<void> {
	const folder = mkdtempSync(path.join(tmpdir(), 'outreach-workflows-'));
	try {
		for (const [index, workflow] of workflows.entries()) {
			const text = typeof workflow === 'string' ? readFileSync(workflow, 'utf8') : JSON.stringify(workflow);
			writeFileSync(path.join(folder, `${index}.json`), text);
		}
		await n8nCliOk(bin, ['import:workflow', '--separate', `--input=${folder}`], env);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

/** The JSON value at the start of `text`, ignoring whatever follows it. */
function leadingJson(text: string): unknown {
	let depth = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === '{' || char === '[') depth++;
		else if ((char === '}' || char === ']') && --depth === 0) return JSON.parse(text.slice(0, index + 1));
	}
	return JSON.parse(text);
}

/**
 * The run's resultData (runData, error, …) from what `n8n execute
 * --rawOutput` printed: log lines, the run as JSON, and after a failed run
 * more log lines.
 */
export function resultDataOf(stdout: string): unknown {
	const start = stdout.search(/^\{/m);
	if (start < 0) throw new LaunchError(`No run data in the output of n8n execute:\n${stdout.slice(-4000)}`);
	return (leadingJson(stdout.slice(start)) as { data: { resultData: unknown } }).data.resultData;
}

/** A free TCP port on loopback, as the system hands it out. */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

/** A process in its own process group, so that it and the processes it starts (n8n's task runners) stop together. */
export interface Daemon {
	child: ChildProcess;
	/** Everything it printed so far. */
	log(): string;
	/** SIGTERM to its group, SIGKILL after `graceMs`. */
	stop(graceMs?: number): Promise<void>;
}

/** Every daemon's process group, so that none outlives this process, even after a failure. */
const groups = new Set<number>();
process.once('exit', () => {
	for (const group of groups) signalGroup(group, 'SIGKILL');
});

export function startDaemon(
	command: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	options: { cwd?: string; onOutput?: (chunk: string) => void } = {},
): Daemon {
	const child = spawn(command, args, { env, cwd: options.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	const group = child.pid;
	if (group !== undefined) groups.add(group);
	let output = '';
	const keep = (chunk: Buffer) => {
		const text = chunk.toString();
		output += text;
		options.onOutput?.(text);
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	return {
		child,
		log: () => output,
		async stop(graceMs = 20_000) {
			if (group === undefined) return;
			await stopGroup(group, graceMs);
			groups.delete(group);
		},
	};
}

/** The sandbox (sandbox/cli.mts), the service's stand-in, as a process of its own. */
export interface SandboxDaemon {
	url: string;
	daemon: Daemon;
}

/** Starts the sandbox with `args` (`--port`, `--key`, …); resolves once it listens. */
export async function startSandbox(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<SandboxDaemon> {
	const daemon = startDaemon(process.execPath, [path.join(ROOT, 'sandbox', 'cli.mts'), ...args], env);
	const stdout = daemon.child.stdout;
	if (!stdout) throw new LaunchError('The sandbox has no output to read its address from.');
	const url = await new Promise<string>((resolve, reject) => {
		createInterface({ input: stdout }).once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
		daemon.child.once('exit', (code) => reject(new LaunchError(`The sandbox stopped (exit code ${code}): ${daemon.log().trim().split('\n').slice(-2).join(' ')}`)));
	});
	return { url, daemon };
}

// `node scripts/n8n-launcher.mts install [version …]` (scripts/install-n8n.sh):
// the versions given, or the two the end-to-end suites run, side by side.
if (import.meta.main) {
	const [command, ...versions] = process.argv.slice(2);
	if (command !== 'install') {
		console.error('usage: node scripts/n8n-launcher.mts install [n8n version …]');
		process.exit(2);
	}
	const wanted = versions.length ? versions : [DEFAULT_N8N_VERSION, MAINTAINED_N8N_VERSION];
	const results = await Promise.allSettled(wanted.map((version) => installN8n(version, { nodeBin: process.env.N8N_NODE || undefined })));
	for (const result of results) {
		if (result.status === 'rejected') console.error(result.reason instanceof LaunchError ? `✖ ${result.reason.message}` : result.reason);
	}
	if (results.some((result) => result.status === 'rejected')) process.exit(1);
}
