// Queue mode's services: Debian's redis-server and PostgreSQL on loopback
// ports, in throwaway folders, the settings main and workers share, and the
// workers. PostgreSQL refuses to run as root, so as root it runs as the
// `postgres` user that Debian's package creates.
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

function which(command: string, fallbacks: string[]): string {
	for (const candidate of fallbacks) if (existsSync(candidate)) return candidate;
	try {
		return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();
	} catch {
		throw new Error(
			`${command} is not installed. On Debian: apt-get install -y redis-server postgresql`,
		);
	}
}

async function waitFor(
	check: () => boolean,
	what: string,
	daemon: Daemon,
	timeoutMs = 30_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (check()) return;
		if (daemon.child.exitCode !== null) break;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`${what} did not start:\n${daemon.log()}`);
}

export interface Service {
	port: number;
	daemon: Daemon;
}

export async function startRedis(): Promise<Service> {
	const bin = which('redis-server', ['/usr/bin/redis-server']);
	const port = await freePort();
	const dir = mkdtempSync(path.join(tmpdir(), 'outreach-redis-'));
	const daemon = startDaemon(
		bin,
		[
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
		],
		process.env,
	);
	const cli = which('redis-cli', ['/usr/bin/redis-cli']);
	await waitFor(
		() => {
			try {
				return (
					execFileSync(cli, ['-p', String(port), 'ping'], { encoding: 'utf8' }).trim() === 'PONG'
				);
			} catch {
				return false;
			}
		},
		'redis-server',
		daemon,
	);
	return { port, daemon };
}

function postgresBin(name: string): string {
	const base = '/usr/lib/postgresql';
	const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
	for (const version of versions) {
		const candidate = path.join(base, version, 'bin', name);
		if (existsSync(candidate)) return candidate;
	}
	return which(name, []);
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program as `postgres` when we are root. */
function pgCommand(program: string, args: string[]): [string, string[]] {
	// runuser lives in /usr/sbin, which a plain user's PATH (and CI's) may lack.
	const runuser = () => which('runuser', ['/usr/sbin/runuser', '/sbin/runuser']);
	return asRoot ? [runuser(), ['-u', 'postgres', '--', program, ...args]] : [program, args];
}

export async function startPostgres(): Promise<Service & { user: string }> {
	const port = await freePort();
	const dir = mkdtempSync(path.join(tmpdir(), 'outreach-pg-'));
	chmodSync(dir, 0o777);
	const data = path.join(dir, 'data');
	const user = asRoot ? 'postgres' : (process.env.USER ?? 'postgres');
	const [initdb, initArgs] = pgCommand(postgresBin('initdb'), [
		'-D',
		data,
		'--auth=trust',
		'-U',
		user,
		'--no-sync',
	]);
	execFileSync(initdb, initArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
	const [postgres, args] = pgCommand(postgresBin('postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		`unix_socket_directories=${dir}`,
		'-c',
		'fsync=off',
	]);
	const daemon = startDaemon(postgres, args, process.env);
	const isReady = postgresBin('pg_isready');
	await waitFor(
		() => {
			try {
				execFileSync(isReady, ['-h', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
				return true;
			} catch {
				return false;
			}
		},
		'PostgreSQL',
		daemon,
	);
	const [createdb, createArgs] = pgCommand(postgresBin('createdb'), [
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
		'-U',
		user,
		'n8n',
	]);
	execFileSync(createdb, createArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
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
	const [redis, postgres]: [Service, Service & { user: string }] = await Promise.all([
		startRedis(),
		startPostgres(),
	]);
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

/**
 * Queue mode's workers, each with the package installed in a user folder of
 * its own, started side by side; resolves once each reports ready.
 */
export async function startWorkers(
	bin: string,
	tarball: string,
	shared: Record<string, string>,
	count: number,
	stops: Array<() => Promise<void>>,
): Promise<Daemon[]> {
	const workers: Daemon[] = [];
	const health: number[] = [];
	for (let index = 0; index < count; index++) {
		health.push(await freePort());
		const workerEnv = n8nEnv(await userFolderWithPackage(tarball), {
			...shared,
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(health[index]),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		});
		const worker = startDaemon(bin, ['worker', '--concurrency=10'], workerEnv);
		workers.push(worker);
		stops.push(() => worker.stop());
	}
	await Promise.all(
		workers.map((worker, index) =>
			waitForHttp(`http://127.0.0.1:${health[index]}/healthz/readiness`, worker),
		),
	);
	return workers;
}
