// Installs an n8n version into .cache/ once, side by side with others, and
// runs npm for the rest of scripts/n8n/. `node scripts/n8n/install.mts install
// [version …]` is what scripts/install-n8n.sh runs.
import { spawn, spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	readdirSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { buildSqlite3 } from './sqlite3.mts';
import {
	DEFAULT_N8N_VERSION,
	LaunchError,
	MAINTAINED_N8N_VERSION,
	ROOT,
	TESTED_N8N_VERSIONS,
	isInstalled,
	n8nInstallDir,
	testedVersionsText,
} from './versions.mts';

/**
 * This registry serves neither cssom-based linkedom's newest release nor the
 * xlsx tarball n8n 1.x names; these versions of them install.
 */
const N8N_OVERRIDES = { linkedom: '0.18.14', xlsx: '0.18.5' };

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
	return seconds < 60
		? `${seconds} s`
		: `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
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
		.filter(
			(line) => line && !/complete log of this run|A complete log|^code E|^\s*at /.test(line),
		);
	return lines.slice(-3).join(' ');
}

/** Runs `npm` to the end with its output kept; throws LaunchError with npm's reason on failure. */
export function npm(
	args: string[],
	options: { cwd: string; env?: NodeJS.ProcessEnv; what: string },
): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.once('error', reject);
		child.once('exit', (code, signal) => {
			if (code === 0) resolve();
			else
				reject(
					new LaunchError(
						`${options.what} failed${signal ? ` (${signal})` : ''}: ${npmReason(output) || `npm exited with ${code}`}`,
					),
				);
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
 * then built for the Node that runs n8n, once for every install (sqlite3.mts).
 * Installs of the same version wait for each other.
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
			JSON.stringify(
				{
					name: `n8n-install-${version}`,
					private: true,
					dependencies: { n8n: version },
					overrides: N8N_OVERRIDES,
				},
				null,
				2,
			),
		);
		// The tree the suites were run against, kept in scripts/n8n/locks/: npm ci skips resolving it again.
		const lockfile = path.join(ROOT, 'scripts', 'n8n', 'locks', `n8n-${version}.json`);
		const locked = existsSync(lockfile);
		if (locked) copyFileSync(lockfile, path.join(partial, 'package-lock.json'));
		const started = Date.now();
		log(
			`  Installing n8n ${version} into .cache/${path.basename(dir)}: about 6 minutes and 3 GB of disk, once.`,
		);
		const progress = setInterval(() => {
			const count = countPackages(partial);
			const state =
				count === 0 ? 'npm is resolving its dependencies' : `${count} packages in place`;
			log(`  … n8n ${version}: ${state}, ${elapsed(Date.now() - started)} so far`);
		}, 20_000);
		try {
			await npm(
				[
					locked ? 'ci' : 'install',
					'--ignore-scripts',
					'--no-audit',
					'--no-fund',
					'--loglevel=error',
				],
				{
					cwd: partial,
					what: `Installing n8n ${version}`,
				},
			);
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
		const nodedir = options.nodeBin
			? process.env.OUTREACH_NPMRC_NODEDIR
			: env.npm_package_config_node_gyp_nodedir;
		if (nodedir) env.npm_config_nodedir = nodedir;
		if (options.nodeBin) {
			delete env.npm_package_config_node_gyp_nodedir;
			env.PATH = `${path.dirname(options.nodeBin)}${path.delimiter}${env.PATH ?? ''}`;
		}
		await buildSqlite3(partial, env, { nodeBin: options.nodeBin, log });
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
export function checkN8nVersion(
	version: string,
	log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): void {
	if (isInstalled(n8nInstallDir(version))) return;
	const known = spawnSync('npm', ['view', `n8n@${version}`, 'version', '--json'], {
		cwd: tmpdir(),
		encoding: 'utf8',
	});
	if (known.status !== 0 || !known.stdout.includes(`"${version}"`)) {
		throw new LaunchError(
			`There is no n8n ${version} on the npm registry. ${testedVersionsText()}`,
		);
	}
	if (!TESTED_N8N_VERSIONS.includes(version))
		log(`  n8n ${version} is not a tested version; trying it anyway. ${testedVersionsText()}`);
}

// `node scripts/n8n/install.mts install [version …]` (scripts/install-n8n.sh):
// the versions given, or the two the end-to-end suites run, side by side.
if (import.meta.main) {
	const [command, ...versions] = process.argv.slice(2);
	if (command !== 'install') {
		console.error('usage: node scripts/n8n/install.mts install [n8n version …]');
		process.exit(2);
	}
	const wanted = versions.length ? versions : [DEFAULT_N8N_VERSION, MAINTAINED_N8N_VERSION];
	const results = await Promise.allSettled(
		wanted.map((version) => installN8n(version, { nodeBin: process.env.N8N_NODE || undefined })),
	);
	for (const result of results) {
		if (result.status === 'rejected')
			console.error(
				result.reason instanceof LaunchError ? `✖ ${result.reason.message}` : result.reason,
			);
	}
	if (results.some((result) => result.status === 'rejected')) process.exit(1);
}
