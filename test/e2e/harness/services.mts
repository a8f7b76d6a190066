// Queue mode's services: Debian's redis-server and PostgreSQL on loopback ports, in throwaway
// folders, the settings main and workers share, and the workers. PostgreSQL refuses to run as
// root, so as root it runs as the `postgres` user that Debian's package creates.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	freePort,
	n8nEnv,
	startDaemon,
	userFolderWithPackage,
	waitForHttp,
	type Daemon,
} from './n8n.mts';

function which(command: string, fallbacks: string[] = []): string {
	for (const candidate of fallbacks) if (existsSync(candidate)) return candidate;
	try {
		return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();
	} catch {
		throw new Error(
			`${command} is not installed. On Debian: apt-get install -y redis-server postgresql`,
		);
	}
}

/** Polls until `command` succeeds, or fails with the daemon's log. */
async function waitFor(command: [string, string[]], what: string, daemon: Daemon): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline && daemon.child.exitCode === null) {
		try {
			execFileSync(...command, { stdio: 'ignore' });
			return;
		} catch {
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}
	throw new Error(`${what} did not start:\n${daemon.log()}`);
}

export interface Service {
	port: number;
	daemon: Daemon;
}

async function startRedis(): Promise<Service> {
	const port = await freePort();
	const dir = mkdtempSync(path.join(tmpdir(), 'outreach-redis-'));
	const args = [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--save',
		'',
		'--appendonly',
		'no',
		'--dir',
		dir,
	];
	const daemon = startDaemon(which('redis-server', ['/usr/bin/redis-server']), args, process.env);
	await waitFor(
		[which('redis-cli', ['/usr/bin/redis-cli']), ['-p', String(port), 'ping']],
		'redis-server',
		daemon,
	);
	return { port, daemon };
}

function postgresBin(name: string): string {
	const base = '/usr/lib/postgresql';
	const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
	return which(
		name,
		versions.map((version) => path.join(base, version, 'bin', name)),
	);
}

const asRoot = process.getuid?.() === 0;

/** A PostgreSQL program, as `postgres` when we are root (runuser lives in /usr/sbin, which CI's PATH may lack). */
const pg = (program: string, args: string[]): [string, string[]] =>
	asRoot
		? [
				which('runuser', ['/usr/sbin/runuser', '/sbin/runuser']),
				['-u', 'postgres', '--', postgresBin(program), ...args],
			]
		: [postgresBin(program), args];

export async function startPostgres(): Promise<Service & { user: string }> {
	const port = await freePort();
	const dir = mkdtempSync(path.join(tmpdir(), 'outreach-pg-'));
	chmodSync(dir, 0o777);
	const data = path.join(dir, 'data');
	const user = asRoot ? 'postgres' : (process.env.USER ?? 'postgres');
	const quiet = { stdio: ['ignore', 'ignore', 'inherit'] as ['ignore', 'ignore', 'inherit'] };
	execFileSync(...pg('initdb', ['-D', data, '--auth=trust', '-U', user, '--no-sync']), quiet);
	const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${dir}`, 'fsync=off'];
	const daemon = startDaemon(
		...pg('postgres', [
			'-D',
			data,
			'-p',
			String(port),
			...settings.flatMap((setting) => ['-c', setting]),
		]),
		process.env,
	);
	await waitFor(
		[postgresBin('pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]],
		'PostgreSQL',
		daemon,
	);
	execFileSync(
		...pg('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', user, 'n8n']),
		quiet,
	);
	return { port, daemon, user };
}

/** n8n's settings for the database `startPostgres` made. */
export const postgresEnv = (postgres: Service & { user: string }): Record<string, string> => ({
	DB_TYPE: 'postgresdb',
	DB_POSTGRESDB_HOST: '127.0.0.1',
	DB_POSTGRESDB_PORT: String(postgres.port),
	DB_POSTGRESDB_DATABASE: 'n8n',
	DB_POSTGRESDB_USER: postgres.user,
	DB_POSTGRESDB_PASSWORD: '',
});

/** Redis and PostgreSQL for queue mode, and the settings main and workers share. */
export async function queueServices(
	stops: Array<() => Promise<void>>,
): Promise<Record<string, string>> {
	const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
	stops.push(
		() => redis.daemon.stop(),
		() => postgres.daemon.stop(),
	);
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		...postgresEnv(postgres),
		// Main and workers must share the key that encrypts credentials.
		N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
	};
}

/** Queue mode's workers, each with the package installed in a user folder of its own, started side by side; resolves once each reports ready. */
export async function startWorkers(
	bin: string,
	tarball: string,
	shared: Record<string, string>,
	count: number,
	stops: Array<() => Promise<void>>,
): Promise<Daemon[]> {
	const started = await Promise.all(
		Array.from({ length: count }, async () => {
			const health = await freePort();
			const env = n8nEnv(await userFolderWithPackage(tarball), {
				...shared,
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(health),
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			});
			const worker = startDaemon(bin, ['worker', '--concurrency=10'], env);
			stops.push(() => worker.stop());
			return { worker, health };
		}),
	);
	await Promise.all(
		started.map(({ worker, health }) =>
			waitForHttp(`http://127.0.0.1:${health}/healthz/readiness`, worker),
		),
	);
	return started.map(({ worker }) => worker);
}
