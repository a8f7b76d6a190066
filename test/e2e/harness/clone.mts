// A fresh clone of this repository in a folder of its own, with nothing
// beside it, and the processes a command started there: what a new user
// has, and what must be gone after they stop it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { isTaken } from '../../../scripts/demo-preflight.mjs';
import { ROOT } from './n8n.mts';

/**
 * `git clone` of this repository's HEAD into <tmp>/<folder>/n8n-nodes-outreach-sequences,
 * sharing only the n8n installs with this checkout (about 6 minutes each), as
 * symlinks: no node_modules, no Node 24, no dist, no .n8n-local.
 */
export function cloneProject(): string {
	const dir = path.join(
		mkdtempSync(path.join(tmpdir(), 'outreach-clone-')),
		'n8n-nodes-outreach-sequences',
	);
	execFileSync('git', ['clone', '--quiet', ROOT, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
	const cache = path.join(dir, '.cache');
	mkdirSync(cache, { recursive: true });
	for (const name of readdirSync(path.join(ROOT, '.cache')))
		if (/^n8n-[\d.]+$/.test(name) && existsSync(path.join(ROOT, '.cache', name, '.ready')))
			symlinkSync(path.join(ROOT, '.cache', name), path.join(cache, name));
	return dir;
}

function nodeMajorAt(bin: string): number {
	try {
		return Number(
			execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '').split('.')[0],
		);
	} catch {
		return Infinity;
	}
}

/** The folder of a `node` older than 24 on this machine: the Node a new user has. */
export function olderNodeDir(): string {
	const candidates = [
		...(process.env.PATH ?? '').split(path.delimiter),
		'/usr/local/bin',
		'/usr/bin',
	];
	for (const dir of candidates) {
		if (!dir || dir.includes('node24') || dir.includes('node_modules')) continue;
		const bin = path.join(dir, 'node');
		if (existsSync(bin) && nodeMajorAt(bin) < 24) return dir;
	}
	throw new Error('This machine has no Node older than 24 on PATH, /usr/local/bin or /usr/bin.');
}

/**
 * A new user's shell: the machine's older Node first on PATH, and none of
 * what npm, jest or this project's scripts put in the environment.
 */
export function newcomerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const older = olderNodeDir();
	const rest = (process.env.PATH ?? '')
		.split(path.delimiter)
		.filter(
			(dir) => dir && dir !== older && !dir.includes('node24') && !dir.includes('node_modules'),
		);
	const env: NodeJS.ProcessEnv = { PATH: [older, ...rest].join(path.delimiter) };
	for (const name of ['HOME', 'USER', 'LOGNAME', 'LANG', 'TMPDIR', 'SHELL'])
		if (process.env[name] !== undefined) env[name] = process.env[name];
	// npm's cache is the machine's: what it holds is not fetched again (npm ci, Node 24 from the registry).
	return { ...env, npm_config_prefer_offline: 'true', ...extra };
}

export interface Command {
	child: ChildProcess;
	/** Everything it printed so far, stdout and stderr together. */
	output(): string;
	/** Resolves with the exit code (null after a signal) and the signal. */
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `command` (words separated by spaces, as typed) in `cwd`: its own process is the command's. */
export function runCommand(command: string, cwd: string, env: NodeJS.ProcessEnv): Command {
	const [bin, ...args] = command.trim().split(/\s+/);
	const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal })),
	);
	return { child, output: () => output, exited };
}

/** Every process below `pid`, at this moment (`ps`): those that left its process group too. */
export function descendants(pid: number): number[] {
	const children = new Map<number, number[]>();
	for (const line of execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
		.trim()
		.split('\n')) {
		const [child, parent] = line.trim().split(/\s+/).map(Number);
		children.set(parent, [...(children.get(parent) ?? []), child]);
	}
	const found: number[] = [];
	const queue = [pid];
	while (queue.length) {
		for (const child of children.get(queue.shift()!) ?? []) {
			found.push(child);
			queue.push(child);
		}
	}
	return found;
}

/** The processes among `pids` that still run, with their command lines. */
export function stillRunning(pids: number[]): string[] {
	const running: string[] = [];
	for (const pid of pids) {
		try {
			const command = execFileSync('ps', ['-o', 'stat=,command=', '-p', String(pid)], {
				encoding: 'utf8',
			}).trim();
			if (command && !command.startsWith('Z')) running.push(`${pid} ${command}`);
		} catch {
			// gone
		}
	}
	return running;
}

/** SIGKILL to each of `pids`, at once, with no chance to clean up; those already gone are skipped. */
export function killNow(pids: number[]): void {
	for (const pid of pids) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}
}

/** Whether nothing listens on `port`: the bind n8n and the sandbox make succeeds (demo-preflight.mjs). */
export async function portIsFree(port: number, host = '0.0.0.0'): Promise<boolean> {
	return !(await isTaken({ port, host }));
}

/** Polls until `check` holds; fails with `describe()` after `timeoutMs`. */
export async function until(
	check: () => Promise<boolean> | boolean,
	timeoutMs: number,
	describe: () => string,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await Promise.resolve(check()).catch(() => false))) {
		if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms: ${describe()}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** HTTP status of `url`, or 0 when nothing answers. */
export async function statusOf(url: string, init?: RequestInit): Promise<number> {
	return await fetch(url, init).then(
		(response) => response.status,
		() => 0,
	);
}
