// `npm start`: n8n with this package installed as a community package, the
// sandbox, a credential for it, and the example workflows, ready to run.
// scripts/dev.mjs runs it on Node 24 once it has checked the ports and any
// earlier start (scripts/demo-preflight.mjs).
// - Every step can be repeated: credentials and workflows are imported by id,
//   replacing what an earlier start imported.
// - A failed step says what failed in n8n's or npm's own words, stops what
//   was started, and exits 1.
// - Ctrl-C, SIGINT, SIGTERM or SIGHUP, and its parent (npm) going away, stop
//   n8n with its task runners and the sandbox; .n8n-local/start.json names
//   this process and the process groups it started, so that the next start
//   can stop what a killed one left (scripts/start-processes.mts).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import { demoPorts, takenPorts, takenPortsText } from './demo-preflight.mjs';
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
import { startDaemon, startSandbox } from './n8n/processes.mts';
import {
	daemons,
	n8nStoppedText,
	run,
	shutdown,
	step,
	stopOnSignals,
	waitFor,
	writeState,
} from './start-processes.mts';

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

async function main(): Promise<void> {
	stopOnSignals();
	writeState(port);
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
	console.log(`  ${sandbox.knownIds}`);

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
    n8n 2.41 opens its Assistant page after the owner account: go
    straight to a workflow, such as "Outreach: get a use case":
    http://localhost:${port}/workflow/outreach-get-use-case
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
