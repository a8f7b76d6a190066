// Real n8n for the end-to-end suites: a cached install per version, this
// package packed and installed the way n8n's community-package installer does,
// the n8n CLI, and `n8n start` / `n8n worker` processes.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

import { resultDataOf } from '../../../scripts/run-data.cjs';

const here = path.dirname(fileURLToPath(import.meta.url));

export const ROOT = path.resolve(here, '..', '..', '..');
export const ARTIFACTS = path.join(ROOT, 'artifacts', 'e2e');

/** The n8n lines users run: 2.x on Node 24, and the maintained 1.123.x line. */
export const N8N_CURRENT = process.env.E2E_N8N_CURRENT ?? '2.41.1';
export const N8N_MAINTAINED = process.env.E2E_N8N_MAINTAINED ?? '1.123.81';

export const PACKAGE_NAME = 'n8n-nodes-outreach-sequences';
/** The node's type once n8n has installed the package from npm. */
export const NODE_TYPE = `${PACKAGE_NAME}.outreachSequences`;

/** Installs n8n `version` into .cache/n8n-<version> on first use (scripts/install-n8n.sh). */
export function prepareN8n(version: string): string {
	execFileSync('bash', [path.join(ROOT, 'scripts', 'install-n8n.sh'), version], { stdio: ['ignore', 'inherit', 'inherit'] });
	return path.join(ROOT, '.cache', `n8n-${version}`, 'node_modules', '.bin', 'n8n');
}

/** `npm pack` of the built package (the build runs before the suite). */
export function packPackage(): string {
	const destination = mkdtempSync(path.join(tmpdir(), 'outreach-pack-'));
	const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], {
		cwd: ROOT,
		encoding: 'utf8',
	}).trim();
	return path.join(destination, name);
}

/**
 * A fresh N8N_USER_FOLDER with the tarball installed into <folder>/.n8n/nodes
 * by `npm install <tarball>`, which is what n8n's community-package installer runs.
 */
export function userFolderWithPackage(tarball: string): string {
	const folder = mkdtempSync(path.join(tmpdir(), 'outreach-n8n-'));
	const nodesDir = path.join(folder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
	execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
		cwd: nodesDir,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	const installed = readdirSync(path.join(nodesDir, 'node_modules'));
	if (!installed.includes(PACKAGE_NAME)) throw new Error(`npm install did not install ${PACKAGE_NAME}`);
	return folder;
}

export function n8nEnv(userFolder: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	// Jest sets NODE_ENV=test, which silences n8n's CLI output; users' n8n runs without it.
	const { NODE_ENV, JEST_WORKER_ID, ...inherited } = process.env;
	void NODE_ENV;
	void JEST_WORKER_ID;
	return {
		...inherited,
		N8N_USER_FOLDER: userFolder,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		DB_SQLITE_POOL_SIZE: '1',
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
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
 * prints came back cut short, or with another process's line inside.
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

export async function n8nCliOk(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
	const result = await n8nCli(bin, args, env);
	if (result.code !== 0) {
		throw new Error(`n8n ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
	}
	return result;
}

/**
 * Makes an imported workflow's triggers live: `publish:workflow` on n8n 2.x,
 * `update:workflow --active=true` on 1.x, which has no publishing.
 */
export async function publishWorkflow(bin: string, version: string, id: string, env: NodeJS.ProcessEnv): Promise<void> {
	const args = Number(version.split('.')[0]) >= 2 ? ['publish:workflow', `--id=${id}`] : ['update:workflow', `--id=${id}`, '--active=true'];
	await n8nCliOk(bin, args, env);
}

/** The tool description the node declares for an operation (its `toolDescription` default), from the built node. */
export function declaredToolDescription(resource: string, operation: string): string {
	const { OutreachSequences } = createRequire(import.meta.url)(path.join(ROOT, 'dist', 'nodes', 'OutreachSequences', 'OutreachSequences.node.js')) as {
		OutreachSequences: new () => { description: { properties: Array<{ name: string; default: unknown; displayOptions?: { show?: Record<string, unknown[]> } }> } };
	};
	const property = new OutreachSequences().description.properties.find(
		(candidate) =>
			candidate.name === 'toolDescription' &&
			candidate.displayOptions?.show?.resource?.includes(resource) &&
			candidate.displayOptions?.show?.operation?.includes(operation),
	);
	if (typeof property?.default !== 'string') throw new Error(`The built node declares no tool description for ${resource} › ${operation}`);
	return property.default;
}

export interface ExecutedItem {
	json: Record<string, unknown>;
	pairedItem?: { item: number } | Array<{ item: number }>;
}

export interface NodeRun {
	executionStatus?: string;
	error?: { message?: string; description?: string };
	data?: { main?: Array<ExecutedItem[] | null> };
}

export interface ExecuteRun {
	runData: Record<string, NodeRun[]>;
	error?: { message?: string; description?: string; node?: { name?: string } };
	lastNodeExecuted?: string;
}

/** The run data that `n8n execute --rawOutput` prints after its log lines. */
export function runDataOf(stdout: string): ExecuteRun {
	return resultDataOf(stdout) as ExecuteRun;
}

/** The items one node put out, per output index, from its first run. */
export function outputsOf(run: ExecuteRun, node: string): ExecutedItem[][] {
	const task = run.runData[node]?.[0];
	return (task?.data?.main ?? []).map((items) => items ?? []);
}

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

export interface Daemon {
	child: ChildProcess;
	/** Everything the process printed so far. */
	log(): string;
	stop(): Promise<void>;
}

/** Every daemon's process group, so that none outlives this test process, even after a failed setup. */
const groups = new Set<number>();
process.once('exit', () => {
	for (const group of groups) {
		try {
			process.kill(-group, 'SIGKILL');
		} catch {
			// already gone
		}
	}
});

/** Starts a long-running process and keeps its output for failure messages and the secret scan. */
export function startDaemon(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Daemon {
	const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	if (child.pid) groups.add(child.pid);
	child.once('exit', () => groups.delete(child.pid!));
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	return {
		child,
		log: () => output,
		stop: () =>
			new Promise<void>((resolve) => {
				if (child.exitCode !== null || child.signalCode !== null) return resolve();
				const timer = setTimeout(() => {
					try {
						process.kill(-child.pid!, 'SIGKILL');
					} catch {
						// already gone
					}
				}, 15_000);
				child.once('exit', () => {
					clearTimeout(timer);
					resolve();
				});
				try {
					process.kill(-child.pid!, 'SIGTERM');
				} catch {
					resolve();
				}
			}),
	};
}

/** Polls `url` until it answers 2xx, or fails with the daemon's log. */
export async function waitForHttp(url: string, daemon: Daemon, timeoutMs = 180_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (daemon.child.exitCode !== null) throw new Error(`The process stopped before ${url} was ready:\n${daemon.log()}`);
		const ok = await fetch(url).then(
			(response) => response.ok,
			() => false,
		);
		if (ok) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`${url} was not ready after ${timeoutMs} ms:\n${daemon.log()}`);
}

/**
 * n8n reports ready before it has registered the published workflows'
 * webhooks; until then their URLs answer 404.
 */
export async function waitForWebhook(url: URL, daemon: Daemon, timeoutMs = 120_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await fetch(url, { method: 'POST' });
		if (response.status !== 404) return;
		if (Date.now() > deadline) throw new Error(`${url.href} still answered 404 after ${timeoutMs} ms:\n${daemon.log()}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** An MCP tools/call result, as the MCP SDK's client returns it. */
export interface McpToolResult {
	isError?: boolean;
	content: Array<{ type: string; text?: string }>;
}

export interface N8nServer {
	url: string;
	daemon: Daemon;
	/** The owner's session cookie, after setupOwner. */
	cookie: string;
}

export const OWNER = {
	email: 'owner@example.test',
	password: 'Owner-password-1',
	firstName: 'Ops',
	lastName: 'Owner',
};

/**
 * Creates the owner account through the REST API and keeps its session cookie.
 * n8n 1.x reports ready a moment before its REST routes exist, so a 404 is
 * asked again for up to a minute.
 */
export async function setupOwner(url: string): Promise<string> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const response = await fetch(`${url}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(OWNER),
		});
		if (response.status === 404 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 500));
			continue;
		}
		if (!response.ok) throw new Error(`Owner setup failed: ${response.status} ${await response.text()}`);
		const cookie = response.headers.get('set-cookie')?.split(';')[0];
		if (!cookie) throw new Error('Owner setup returned no session cookie');
		return cookie;
	}
}

/** A REST call as the owner; throws with the body on a non-2xx answer. */
export async function rest<T>(server: N8nServer, method: string, route: string, body?: unknown): Promise<T> {
	const response = await fetch(`${server.url}/rest${route}`, {
		method,
		headers: { cookie: server.cookie, 'content-type': 'application/json', 'browser-id': 'e2e' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} /rest${route} → ${response.status}: ${text}`);
	const parsed = JSON.parse(text) as { data?: T };
	return (parsed.data ?? parsed) as T;
}

/** `n8n start` on `port`, ready and with the owner signed in: what the editor suites drive. */
export async function startN8nServer(bin: string, env: NodeJS.ProcessEnv, port: number): Promise<N8nServer> {
	const daemon = startDaemon(bin, ['start'], env);
	const url = `http://127.0.0.1:${port}`;
	await waitForHttp(`${url}/healthz/readiness`, daemon);
	return { url, daemon, cookie: await setupOwner(url) };
}
