// `npm start`: n8n with this package installed as a community package, the
// sandbox, a credential for it, and the example workflows, ready to run.
// scripts/dev.mjs runs it on Node 24 once it has checked the ports and any
// earlier start (scripts/demo-preflight.mjs).
// - Every step can be repeated: credentials and workflows are imported by id,
//   replacing what an earlier start imported.
// - A failed step says what failed in n8n's or npm's own words, stops what
//   was started, and exits 1.
// - Ctrl-C, SIGINT, SIGTERM or SIGHUP, and its parent (npm) going away, stop
//   n8n with its task runners and the sandbox.
// - .n8n-local/start.json names this process and the process groups it
//   started, so that the next start can stop what a killed one left.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import {
	demoPorts,
	portsInUseIn,
	stateFile,
	takenPorts,
	takenPortsText,
} from './demo-preflight.mjs';
import { DEFAULT_N8N_VERSION, LaunchError, ROOT, n8nBin } from './n8n/versions.mts';
import { checkN8nVersion, elapsed, installN8n } from './n8n/install.mts';
import {
	exampleWorkflowFiles,
	importCredentials,
	importWorkflows,
	installPackage,
	n8nEnv,
	packPackage,
	publishWorkflow,
	unpublishWorkflow,
} from './n8n/user-folder.mts';
import { n8nReason } from './n8n/cli.mts';
import { startDaemon, startSandbox } from './n8n/processes.mts';
import type { Daemon } from './n8n/processes.mts';

const version = process.env.N8N_VERSION || DEFAULT_N8N_VERSION;
const port = Number(process.env.N8N_PORT ?? 5678);
const brokerPort = Number(process.env.N8N_RUNNERS_BROKER_PORT ?? 5679);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 4010);
const DEFAULT_API_KEY = 'sandbox-key-0123456789';
const apiKey = process.env.SANDBOX_API_KEY || DEFAULT_API_KEY;
// A key or token the user chose is never printed: only the public defaults are.
const shown = (value: string, fallback: string, variable: string) =>
	value === fallback ? value : `the ${variable} you set`;
// The token MCP clients send to the "Outreach tools for MCP clients" workflow.
const DEFAULT_MCP_TOKEN = 'local-mcp-token-0123456789';
const mcpToken = process.env.MCP_TOKEN || DEFAULT_MCP_TOKEN;
const userFolder = path.join(ROOT, '.n8n-local', 'user');
// Since the command was typed (scripts/dev.mjs), so that fetching Node 24 and npm ci count too.
const started = Number(process.env.OUTREACH_STARTED_AT) || Date.now();

const daemons: Daemon[] = [];
const children = new Set<ChildProcess>();
let stopping: Promise<never> | undefined;

function step(text: string): void {
	console.log(`\n▸ ${text}`);
}

function writeState(): void {
	mkdirSync(path.dirname(stateFile(ROOT)), { recursive: true });
	const groups = daemons
		.map((daemon) => daemon.child.pid)
		.filter((pid): pid is number => pid !== undefined);
	writeFileSync(stateFile(ROOT), JSON.stringify({ pid: process.pid, n8nPort: port, groups }));
}

/** Stops everything this start started, once, then exits. */
function shutdown(code: number, message?: string): Promise<never> {
	stopping ??= (async () => {
		if (message) console.error(`\n✖ ${message}`);
		const running = daemons.length + children.size > 0;
		if (running)
			console.log(
				`\nStopping ${daemons.length > 1 ? 'n8n and the sandbox' : daemons.length ? 'the sandbox' : 'the build'} …`,
			);
		for (const child of children) child.kill('SIGTERM');
		// n8n first: its executions may still be calling the sandbox.
		for (const daemon of [...daemons].reverse()) await daemon.stop();
		rmSync(stateFile(ROOT), { force: true });
		if (running) console.log('Stopped.');
		process.exit(code);
	})();
	return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
	process.on(signal, () => void shutdown(0));
// npm killed outright (SIGKILL) passes nothing on: its child sees it go.
const parent = process.ppid;
setInterval(() => {
	if (process.ppid !== parent) void shutdown(0);
}, 1000).unref();

/** Runs a command to the end as part of this start; Ctrl-C stops it too. */
function run(command: string, args: string[], what: string): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
		children.add(child);
		child.once('exit', (code, signal) => {
			children.delete(child);
			if (code === 0) resolve();
			else
				reject(
					new LaunchError(
						`${what} failed (${signal ?? `exit code ${code}`}); its output is above.`,
					),
				);
		});
	});
}

/**
 * Why n8n stopped, in the start-up check's words when a port of the demo was
 * in use (n8n prints "… port 5679 is already in use"): the port, what it is
 * for, and the variable that moves it. Otherwise n8n's own last lines.
 */
function n8nStoppedText(code: number | null, signal: NodeJS.Signals | null, log: string): string {
	const inUse = portsInUseIn(log);
	if (inUse.length) {
		return `n8n stopped as it started. ${takenPortsText(inUse)}\n  ${inUse.length === 1 ? 'It was' : 'They were'} free when npm start checked; another program took ${inUse.length === 1 ? 'it' : 'them'} since. Another npm start, or another n8n, may be running.`;
	}
	return `n8n stopped (${signal ?? `exit code ${code}`}). Its last lines: ${n8nReason({ code, stdout: log, stderr: '' })}`;
}

/** Polls until `check` holds, or fails when n8n stops first. */
async function waitFor(
	check: () => Promise<boolean>,
	n8n: Daemon,
	what: string,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check().catch(() => false))) {
		if (n8n.child.exitCode !== null || n8n.child.signalCode !== null) {
			throw new LaunchError(n8nStoppedText(n8n.child.exitCode, n8n.child.signalCode, n8n.log()));
		}
		if (Date.now() > deadline)
			throw new LaunchError(`n8n did not get ${what} within ${timeoutMs / 1000} s.`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

async function main(): Promise<void> {
	writeState();
	checkN8nVersion(version, (line) => console.log(line));

	step('Building the package');
	await run('npm', ['run', '-s', 'build'], 'npm run build');

	step(`Preparing n8n ${version}`);
	const n8n = n8nBin(await installN8n(version, { log: (line) => console.log(line) }));

	step(
		'Installing the package into .n8n-local/user/.n8n/nodes, as n8n installs community packages',
	);
	const tarball = packPackage();
	try {
		await installPackage(userFolder, tarball);
	} finally {
		rmSync(path.dirname(tarball), { recursive: true, force: true });
	}

	step(`Starting the sandbox on port ${sandboxPort}`);
	const sandbox = await startSandbox(['--port', String(sandboxPort), '--key', apiKey]);
	daemons.push(sandbox.daemon);
	writeState();
	const sandboxUrl = sandbox.url;
	console.log(`  ${sandboxUrl} (API key: ${shown(apiKey, DEFAULT_API_KEY, 'SANDBOX_API_KEY')})`);

	// Set, so that the demo keeps loading this package when n8n's default turns
	// unverified community packages off (n8n 3.0).
	const env = n8nEnv(userFolder, {
		N8N_PORT: String(port),
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_UNVERIFIED_PACKAGES_ENABLED: process.env.N8N_UNVERIFIED_PACKAGES_ENABLED ?? 'true',
	});

	step(
		'Importing the credentials "Outreach sandbox" and "MCP client token", and the example workflows',
	);
	await importCredentials(n8n, env, [
		{
			id: 'outreachSandbox',
			name: 'Outreach sandbox',
			type: 'outreachSequencesApi',
			data: { apiKey, baseUrl: sandboxUrl },
		},
		{
			id: 'outreachMcpToken',
			name: 'MCP client token',
			type: 'httpBearerAuth',
			data: { token: mcpToken },
		},
	]);
	const files = exampleWorkflowFiles();
	const workflows = files.map(
		(file) =>
			JSON.parse(readFileSync(file, 'utf8')) as {
				id: string;
				name: string;
				nodes: Array<{ type: string; parameters: { path?: string } }>;
			},
	);
	const mcp = workflows.find((workflow) =>
		workflow.nodes.some((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger'),
	);
	if (!mcp) throw new LaunchError('No example workflow has an MCP Server Trigger.');
	const mcpPath =
		mcp.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger')?.parameters
			.path ?? '';
	// A published workflow can't be replaced by an import: take it down first (a no-op the first time).
	await unpublishWorkflow(n8n, version, mcp.id, env).catch(() => undefined);
	await importWorkflows(n8n, env, files);
	await publishWorkflow(n8n, version, mcp.id, env);
	for (const workflow of workflows)
		console.log(`  "${workflow.name}"${workflow === mcp ? ' (published)' : ''}`);

	// The ports were free when this start began, minutes ago (the first start
	// installs n8n): check n8n's again, as the sandbox's is this start's own now.
	const late = await takenPorts(demoPorts().filter((entry) => entry.variable !== 'SANDBOX_PORT'));
	if (late.length) {
		throw new LaunchError(
			`${takenPortsText(late)}\n  ${late.length === 1 ? 'It was' : 'They were'} free when npm start began; another program took ${late.length === 1 ? 'it' : 'them'} since. Another npm start, or another n8n, may be running. n8n was not started.`,
		);
	}

	step(`Starting n8n ${version} on port ${port}`);
	const server = startDaemon(n8n, ['start'], env, {
		onOutput: (text) => process.stdout.write(text),
	});
	daemons.push(server);
	writeState();
	server.child.once('exit', (code, signal) => {
		void shutdown(1, n8nStoppedText(code, signal, server.log()));
	});
	await waitFor(
		async () => (await fetch(`http://localhost:${port}/healthz/readiness`)).ok,
		server,
		'ready',
		180_000,
	);
	// n8n is ready a moment before the published workflow's webhooks are.
	await waitFor(
		async () =>
			(await fetch(`http://localhost:${port}/mcp/${mcpPath}`, { method: 'POST' })).status !== 404,
		server,
		'the MCP URL',
		60_000,
	);

	console.log(`
────────────────────────────────────────────────────────────────
 n8n ${version} is running with the Outreach Sequences node:
   http://localhost:${port}        (ready after ${elapsed(Date.now() - started)})

 1. Open the link. The first time, create the owner account.
 2. Open a workflow named "Outreach: …" (one per operation) or
    "Outreach Sequences: every operation", then click "Execute workflow".
 3. The node talks to the sandbox at ${sandboxUrl}
    through the "Outreach sandbox" credential.

 MCP clients: http://localhost:${port}/mcp/${mcpPath}
    with the header  Authorization: Bearer ${shown(mcpToken, DEFAULT_MCP_TOKEN, 'MCP_TOKEN')}

 Ctrl-C stops n8n and the sandbox.
────────────────────────────────────────────────────────────────`);
}

main().catch((error: unknown) => {
	const message =
		error instanceof LaunchError ? error.message : `${(error as Error).stack ?? String(error)}`;
	void shutdown(1, message);
});
