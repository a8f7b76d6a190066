// One call for what a suite needs of real n8n: the version, this package
// packed and installed, the sandbox's credential and the suite's workflows
// imported and published, and n8n run as the suite says (CLI only, `n8n
// start` with the owner signed in, or queue mode with workers, Redis and
// PostgreSQL). The handle it gives back is filled in before the suite's tests
// and stops everything, keeping the logs, after them.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { parse } from 'flatted';

import { SandboxProcess } from '../../harness/sandbox.mts';
import type { StoredCredential } from '../../../scripts/n8n/user-folder.mts';
import { recordLog } from './logs.mts';
import {
	freePort,
	n8nCli,
	n8nEnv,
	packPackage,
	prepareN8n,
	rest,
	runDataOf,
	setupOwner,
	startDaemon,
	waitForHttp,
	waitForRest,
	waitForWebhook,
	type Daemon,
	type ExecuteRun,
	type N8nServer,
	userFolderWithPackage,
} from './n8n.mts';
import { executeManually, publish } from './editor-rest.mts';
import { seed } from './seed.mts';
import { queueServices, startWorkers } from './services.mts';

export { SANDBOX_CREDENTIAL_ID } from './seed.mts';

export interface N8nSetup {
	version: string;
	/** Names the logs under artifacts/e2e/logs. */
	name: string;
	/**
	 * How n8n runs: `cli`, imported only, for `n8n execute`; `server`, `n8n
	 * start` with the owner signed in; `queue`, main and `workers` workers
	 * (default 2) with Redis and PostgreSQL.
	 */
	run: 'cli' | 'server' | 'queue';
	workers?: number;
	/** The service the credential SANDBOX_CREDENTIAL_ID points at. */
	sandbox?: SandboxProcess;
	credentials?: StoredCredential[];
	workflows?: Array<string | object>;
	/** Ids of imported workflows to publish (activate, on 1.x) once n8n has started, as the editor does. */
	publish?: string[];
	/** Routes of published workflows (`/webhook/<path>`, `/mcp/<path>`) to wait for: n8n is ready before they are. */
	ready?: string[];
	env?: Record<string, string>;
}

/** One execution as the REST API lists it. */
export interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
	retryOf?: string | null;
	retrySuccessId?: string | null;
}

/** One execution with its data, as the REST API gives it (the data unflattened). */
export interface Execution extends ExecutionSummary {
	data: {
		resultData: ExecuteRun;
		executionData?: { contextData: Record<string, Record<string, unknown>> };
	};
	/** The workflow as this execution ran it. */
	workflowData: { nodes: Array<{ name: string; parameters: Record<string, unknown> }> };
}

export interface N8n {
	version: string;
	bin: string;
	env: NodeJS.ProcessEnv;
	/** `server` and `queue`: the editor's address, and the owner's session. */
	server: N8nServer;
	workers: Daemon[];
	/**
	 * Runs a workflow to its end: `cli`, `n8n execute --id <id> --rawOutput`
	 * (with `env` added to n8n's; its output kept as the log `<name>-<log>`);
	 * a server, Execute workflow as the editor calls it. The run data, and
	 * what n8n printed meanwhile.
	 */
	execute(
		workflowId: string,
		options?: { env?: Record<string, string>; log?: string },
	): Promise<{ run: ExecuteRun; log: string }>;
	/** A REST call as the owner. */
	rest<T>(method: string, route: string, body?: unknown): Promise<T>;
	/** The executions of a workflow, newest first. */
	executions(workflowId: string): Promise<ExecutionSummary[]>;
	execution(id: string): Promise<Execution>;
	/** Everything main and the workers printed so far. */
	log(): string;
	/** `server`: SIGKILL to main's process group, as a crash or an OOM kill ends it. */
	crashMain(): Promise<void>;
	/** `server`: `n8n start` again, on the same user folder, database and port; resolves once the owner's REST calls answer. */
	startMain(): Promise<void>;
	/** Empties n8n's store for processed items, where the node keeps its memory: as between engine tests, for suites about something else. */
	forgetMemory(): Promise<void>;
}

const EMPTY = () => {
	throw new Error('n8n is not ready: call useN8n inside a describe, and read it in the tests');
};

/** The sandbox for the describe this is called in: started before its tests (and a useN8n called after this), closed after them. */
export function useSandbox(apiKey: string, args: string[] = []): () => SandboxProcess {
	let sandbox: SandboxProcess | undefined;
	beforeAll(async () => {
		sandbox = await SandboxProcess.start(apiKey, args);
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	return () => {
		if (!sandbox)
			throw new Error(
				'The sandbox is not started: call useSandbox inside a describe, and read it in the tests',
			);
		return sandbox;
	};
}

/** Registers the boot before the suite's tests and the clean-up after them; `setup` is read when they run. */
export function useN8n(setup: () => N8nSetup | Promise<N8nSetup>, timeoutMs = 600_000): N8n {
	const handle = {
		execute: EMPTY,
		rest: EMPTY,
		executions: EMPTY,
		execution: EMPTY,
		crashMain: EMPTY,
		startMain: EMPTY,
		forgetMemory: EMPTY,
		log: () => '',
	} as unknown as N8n;
	const stops: Array<() => Promise<void>> = [];
	let name = 'n8n';
	beforeAll(async () => {
		const wanted = await setup();
		name = wanted.name;
		Object.assign(handle, await boot(wanted, stops));
	}, timeoutMs);
	afterAll(async () => {
		const logs = handle.log();
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
		if (logs) recordLog(name, logs);
	}, 120_000);
	return handle;
}

/** This package packed once per worker: dist/ does not change while the suites run, and `npm pack` takes seconds. */
let packed: string | undefined;

async function boot(setup: N8nSetup, stops: Array<() => Promise<void>>): Promise<N8n> {
	const bin = prepareN8n(setup.version);
	const tarball = (packed ??= packPackage());
	const queue = setup.run === 'queue';
	// Debug logging, so that the secret scan reads everything n8n can log; `n8n execute` would print its run data coloured in it.
	const shared: Record<string, string> = {
		N8N_LOG_LEVEL: setup.run === 'cli' ? 'info' : 'debug',
		...setup.env,
	};
	if (queue) Object.assign(shared, await queueServices(stops));
	const port = await freePort();
	const folder = await userFolderWithPackage(tarball);
	const env = n8nEnv(folder, {
		...shared,
		N8N_PORT: String(port),
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
	});

	const seeding = await seed(bin, setup.version, folder, env, {
		sqlite: !queue,
		server: setup.run !== 'cli',
		sandbox: setup.sandbox,
		credentials: setup.credentials ?? [],
		workflows: setup.workflows ?? [],
	});

	const daemons: Daemon[] = [];
	const server = { url: '', cookie: '' } as N8nServer;
	const startMain = async () => {
		const main = startDaemon(bin, ['start'], env);
		daemons.push(main);
		stops.push(() => main.stop());
		server.url = `http://127.0.0.1:${port}`;
		server.daemon = main;
		await waitForHttp(`${server.url}/healthz/readiness`, main);
	};
	if (setup.run !== 'cli') {
		await startMain();
		server.cookie = await setupOwner(server.url);
		await seeding.afterStart((method, route, body) => rest(server, method, route, body));
	}
	const workers = queue ? await startWorkers(bin, tarball, shared, setup.workers ?? 2, stops) : [];
	const call = <T,>(method: string, route: string, body?: unknown) =>
		rest<T>(server, method, route, body);
	const n8n: N8n = {
		version: setup.version,
		bin,
		env,
		server,
		workers,
		async execute(workflowId, options = {}) {
			if (setup.run !== 'cli') return await executeManually(n8n, workflowId);
			const result = await n8nCli(bin, ['execute', `--id=${workflowId}`, '--rawOutput'], {
				...env,
				...options.env,
			});
			recordLog(
				`${setup.name}-${options.log ?? workflowId}`,
				`exit ${result.code}\n${result.stdout}${result.stderr}`,
			);
			return { run: runDataOf(result.stdout), log: `${result.stdout}${result.stderr}` };
		},
		rest: call,
		async executions(workflowId) {
			const filter = encodeURIComponent(JSON.stringify({ workflowId }));
			const page = await call<{ results: ExecutionSummary[] }>(
				'GET',
				`/executions?filter=${filter}&limit=50`,
			);
			return page.results.map((execution) => ({ ...execution, id: String(execution.id) }));
		},
		async execution(id) {
			const found = await call<Omit<Execution, 'data'> & { data: string }>(
				'GET',
				`/executions/${id}`,
			);
			return { ...found, id: String(found.id), data: parse(found.data) as Execution['data'] };
		},
		log: () => [...daemons, ...workers].map((daemon) => daemon.log()).join('\n'),
		crashMain: () => server.daemon.kill(),
		async forgetMemory() {
			if (queue) {
				execFileSync('psql', [
					'-h',
					'127.0.0.1',
					'-p',
					shared.DB_POSTGRESDB_PORT,
					'-U',
					shared.DB_POSTGRESDB_USER,
					'-d',
					'n8n',
					'-qc',
					'DELETE FROM processed_data',
				]);
				return;
			}
			const database = new DatabaseSync(path.join(folder, '.n8n', 'database.sqlite'));
			try {
				// n8n holds the database too: wait for its lock as n8n's own connection would.
				database.exec('PRAGMA busy_timeout = 10000');
				database.exec('DELETE FROM processed_data');
			} finally {
				database.close();
			}
		},
		async startMain() {
			await startMain();
			await waitForRest(server);
		},
	};
	for (const id of setup.publish ?? []) await publish(n8n, id);
	// After the workers: in queue mode a webhook's probe runs on a worker, and main answers it when one has.
	for (const route of setup.ready ?? [])
		await waitForWebhook(new URL(`${server.url}${route}`), server.daemon);
	return n8n;
}
