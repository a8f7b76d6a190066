// `npm run try:n8n`: this package in one n8n version, as a user would have it.
// It checks the n8n signals the node's tool mode reads (scripts/n8n-signals.mts),
// packs and installs the package into a fresh n8n user folder as n8n's
// community-package installer does, and runs
// examples/all-operations.workflow.json with `n8n execute` against the sandbox.
// N8N_VERSION picks n8n (installed into .cache/ on first use); N8N_NODE=<node
// binary> runs n8n with another Node, for 1.x releases that refuse Node 24.
// Exits 1 when a signal is missing or the run fails.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { DEFAULT_N8N_VERSION, LaunchError, ROOT, n8nBin } from './n8n/versions.mts';
import { installN8n } from './n8n/install.mts';
import {
	importCredentials,
	importWorkflows,
	installPackage,
	n8nEnv,
	packPackage,
} from './n8n/user-folder.mts';
import { n8nCli, resultDataOf } from './n8n/cli.mts';
import { startSandbox } from './n8n/processes.mts';
import { checkN8nSignals, missingSignals, signalReport } from './n8n-signals.mts';

interface NodeRun {
	executionStatus: string;
	data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> };
}

const version = process.env.N8N_VERSION || DEFAULT_N8N_VERSION;
const nodeBin = process.env.N8N_NODE || undefined;

async function main(): Promise<number> {
	const dir = await installN8n(version, { nodeBin });
	const signals = checkN8nSignals(dir);
	console.log(`n8n ${version}: the n8n signals tool mode reads`);
	console.log(signalReport(version, signals));

	execFileSync('npm', ['run', '-s', 'build'], {
		cwd: ROOT,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	const work = mkdtempSync(path.join(tmpdir(), 'outreach-try-'));
	const tarball = packPackage(work);
	await installPackage(path.join(work, 'user'), tarball);
	console.log(
		`Installed ${path.basename(tarball)} into ${path.join(work, 'user', '.n8n', 'nodes')}`,
	);

	const key = `try-${Date.now()}-key`;
	const sandbox = await startSandbox(['--port', '0', '--key', key]);
	try {
		console.log(`Sandbox at ${sandbox.url}`);
		const env = n8nEnv(path.join(work, 'user'), { N8N_RUNNERS_ENABLED: 'false' });
		if (nodeBin) env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH ?? ''}`;
		const bin = n8nBin(dir);
		await importCredentials(bin, env, [
			{
				id: 'outreachSandbox',
				name: 'Outreach sandbox',
				type: 'outreachSequencesApi',
				data: { apiKey: key, baseUrl: sandbox.url },
			},
		]);
		await importWorkflows(bin, env, [path.join(ROOT, 'examples', 'all-operations.workflow.json')]);
		const result = await n8nCli(
			bin,
			['execute', '--id=outreach-all-operations', '--rawOutput'],
			env,
		);
		const { runData, error } = resultDataOf(result.stdout) as {
			runData: Record<string, NodeRun[]>;
			error?: { message?: string };
		};
		for (const [name, [task]] of Object.entries(runData)) {
			const items = task.data?.main?.flatMap((output) => output ?? []) ?? [];
			const shown = items.map((item) => String(item.json.id ?? item.json.error ?? '')).join(', ');
			console.log(`${task.executionStatus.padEnd(7)} ${name}: ${items.length} item(s) ${shown}`);
		}
		const requests = (
			(await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as { requests: unknown[] }
		).requests;
		console.log(`The sandbox received ${requests.length} request(s).`);
		const failed = Object.values(runData).some(([task]) => task.executionStatus !== 'success');
		if (error || failed) {
			console.error(`✖ The run failed: ${error?.message ?? 'a node did not succeed'}`);
			return 1;
		}
	} finally {
		await sandbox.daemon.stop();
	}
	const missing = missingSignals(signals);
	if (missing.length) {
		console.error(
			`✖ n8n ${version} lacks what tool mode reads: ${missing.map((check) => `${check.signal} (${check.reads}, expected since n8n ${check.since})`).join('; ')}`,
		);
		return 1;
	}
	return 0;
}

process.exitCode = await main().catch((error: unknown) => {
	console.error(error instanceof LaunchError ? `✖ ${error.message}` : error);
	return 1;
});
