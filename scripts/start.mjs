// `npm start`: n8n 2.x with this package installed as a community package,
// next to the sandbox, with a credential and one example workflow per
// operation ready to run. Ctrl-C stops everything it started.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');
const version = process.env.N8N_VERSION ?? '2.41.1';
const port = Number(process.env.N8N_PORT ?? 5678);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 4010);
const apiKey = process.env.SANDBOX_API_KEY ?? 'sandbox-key-0123456789';
// The token MCP clients send to the "Outreach tools for MCP clients" workflow.
const mcpToken = process.env.MCP_TOKEN ?? 'local-mcp-token-0123456789';
const userFolder = path.join(root, '.n8n-local', 'user');
const n8n = path.join(root, '.cache', `n8n-${version}`, 'node_modules', '.bin', 'n8n');
const children = [];

function step(text) {
	console.log(`\n▸ ${text}`);
}

function run(command, args, options = {}) {
	execFileSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], ...options });
}

function stopAll(code = 0) {
	for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
	setTimeout(() => process.exit(code), 500);
}
process.on('SIGINT', () => {
	console.log('\nStopping n8n and the sandbox …');
	stopAll(0);
});
process.on('SIGTERM', () => stopAll(0));

step(`Preparing n8n ${version} (installed into .cache/ on first use)`);
run('bash', ['scripts/install-n8n.sh', version]);

step('Installing this package into .n8n-local/user/.n8n/nodes, as n8n installs community packages');
const packDir = mkdtempSync(path.join(tmpdir(), 'outreach-pack-'));
const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: root, encoding: 'utf8' }).trim();
const nodesDir = path.join(userFolder, '.n8n', 'nodes');
mkdirSync(nodesDir, { recursive: true });
writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }, null, 2));
run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', path.join(packDir, tarball)], { cwd: nodesDir });
rmSync(packDir, { recursive: true, force: true });

step(`Starting the sandbox on port ${sandboxPort}`);
const sandbox = spawn(
	process.execPath,
	['sandbox/cli.mts', '--port', String(sandboxPort), '--key', apiKey],
	{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
children.push(sandbox);
const sandboxUrl = await new Promise((resolve, reject) => {
	readline.createInterface({ input: sandbox.stdout }).once('line', (line) => resolve(JSON.parse(line).url));
	sandbox.once('exit', (code) => reject(new Error(`The sandbox stopped (exit ${code}). Is port ${sandboxPort} free? Set SANDBOX_PORT.`)));
});
console.log(`  ${sandboxUrl} (API key ${apiKey})`);

const env = {
	...process.env,
	N8N_USER_FOLDER: userFolder,
	N8N_PORT: String(port),
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_SECURE_COOKIE: 'false',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	DB_SQLITE_POOL_SIZE: '1',
};

step('Importing the "Outreach sandbox" and "MCP client token" credentials and the example workflows');
const credentialFile = path.join(userFolder, 'outreach-sandbox.credentials.json');
writeFileSync(
	credentialFile,
	JSON.stringify([
		{ id: 'outreachSandbox', name: 'Outreach sandbox', type: 'outreachSequencesApi', data: { apiKey, baseUrl: sandboxUrl } },
		{ id: 'outreachMcpToken', name: 'MCP client token', type: 'httpBearerAuth', data: { token: mcpToken } },
	]),
);
run(n8n, ['import:credentials', `--input=${credentialFile}`], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const examples = readdirSync(path.join(root, 'examples')).filter((file) => file.endsWith('.workflow.json'));
for (const file of examples) {
	run(n8n, ['import:workflow', `--input=${path.join(root, 'examples', file)}`], { env, stdio: ['ignore', 'ignore', 'inherit'] });
}
console.log(`  ${examples.length} workflows: ${examples.map((file) => file.replace('.workflow.json', '')).join(', ')}`);
// The MCP Server Trigger answers only once its workflow is published (2.x) or active (1.x).
const mcpWorkflow = JSON.parse(readFileSync(path.join(root, 'examples', 'mcp-server.workflow.json'), 'utf8'));
const mcpPath = mcpWorkflow.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger').parameters.path;
const publish = Number(version.split('.')[0]) >= 2 ? ['publish:workflow', `--id=${mcpWorkflow.id}`] : ['update:workflow', `--id=${mcpWorkflow.id}`, '--active=true'];
run(n8n, publish, { env, stdio: ['ignore', 'ignore', 'inherit'] });
console.log(`  published "${mcpWorkflow.name}"`);

step(`Starting n8n ${version} on port ${port}`);
const server = spawn(n8n, ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
children.push(server);
server.stdout.pipe(process.stdout);
server.stderr.pipe(process.stderr);
server.once('exit', (code) => {
	console.error(`n8n stopped (exit ${code}).`);
	stopAll(code ?? 1);
});
for (let attempt = 0; attempt < 180; attempt++) {
	const ready = await fetch(`http://localhost:${port}/healthz/readiness`).then((response) => response.ok, () => false);
	if (ready) break;
	await new Promise((resolve) => setTimeout(resolve, 1000));
}
// n8n is ready a moment before the published workflow's webhooks are: wait for the MCP URL.
for (let attempt = 0; attempt < 60; attempt++) {
	const registered = await fetch(`http://localhost:${port}/mcp/${mcpPath}`, { method: 'POST' }).then((response) => response.status !== 404, () => false);
	if (registered) break;
	await new Promise((resolve) => setTimeout(resolve, 1000));
}

console.log(`
────────────────────────────────────────────────────────────────
 n8n is running with the Outreach Sequences node:  http://localhost:${port}

 1. Open the link. The first time, create the owner account.
 2. Open a workflow named "Outreach: …" (one per operation, and one
    with every operation), then click "Execute workflow".
 3. The node talks to the sandbox at ${sandboxUrl}
    through the "Outreach sandbox" credential.

 MCP clients: http://localhost:${port}/mcp/${mcpPath}
    with the header  Authorization: Bearer ${mcpToken}
    (README › Use from an MCP client)

 Ctrl-C stops n8n and the sandbox.
────────────────────────────────────────────────────────────────`);
