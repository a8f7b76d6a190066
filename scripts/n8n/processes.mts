// Long-running processes: n8n or anything else in a process group of its own,
// which stops with it, and the sandbox, the service's stand-in.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { groupAlive, signalGroup, stopGroup } from '../process-groups.mjs';
import { LaunchError, ROOT } from './versions.mts';

/** A free TCP port on loopback, as the system hands it out. */
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

/** A process in its own process group, so that it and the processes it starts (n8n's task runners) stop together. */
export interface Daemon {
	child: ChildProcess;
	/** Everything it printed so far. */
	log(): string;
	/** SIGTERM to its group, SIGKILL after `graceMs`. */
	stop(graceMs?: number): Promise<void>;
	/** SIGKILL to its group at once, as a crash or an OOM kill ends it; resolves once the group is gone. */
	kill(): Promise<void>;
}

/** Every daemon's process group, so that none outlives this process, even after a failure. */
const groups = new Set<number>();
process.once('exit', () => {
	for (const group of groups) signalGroup(group, 'SIGKILL');
});

export function startDaemon(
	command: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	options: { cwd?: string; onOutput?: (chunk: string) => void } = {},
): Daemon {
	const child = spawn(command, args, {
		env,
		cwd: options.cwd ?? ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	const group = child.pid;
	if (group !== undefined) groups.add(group);
	let output = '';
	const keep = (chunk: Buffer) => {
		const text = chunk.toString();
		output += text;
		options.onOutput?.(text);
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	return {
		child,
		log: () => output,
		async stop(graceMs = 20_000) {
			if (group === undefined) return;
			await stopGroup(group, graceMs);
			groups.delete(group);
		},
		async kill() {
			if (group === undefined) return;
			signalGroup(group, 'SIGKILL');
			while (groupAlive(group)) await new Promise((resolve) => setTimeout(resolve, 50));
			groups.delete(group);
		},
	};
}

/** The sandbox (sandbox/cli.mts), the service's stand-in, as a process of its own. */
export interface SandboxDaemon {
	url: string;
	/** The sandbox's line naming the IDs it knows (sandbox/seed.mts). */
	knownIds: string;
	daemon: Daemon;
}

/** Starts the sandbox with `args` (`--port`, `--key`, …); resolves once it listens. */
export async function startSandbox(
	args: string[],
	env: NodeJS.ProcessEnv = process.env,
): Promise<SandboxDaemon> {
	const daemon = startDaemon(
		process.execPath,
		[path.join(ROOT, 'sandbox', 'cli.mts'), ...args],
		env,
	);
	const stdout = daemon.child.stdout;
	if (!stdout) throw new LaunchError('The sandbox has no output to read its address from.');
	const started = await new Promise<{ url: string; knownIds: string }>((resolve, reject) => {
		createInterface({ input: stdout }).once('line', (line) =>
			resolve(JSON.parse(line) as { url: string; knownIds: string }),
		);
		daemon.child.once('exit', (code) =>
			reject(
				new LaunchError(
					`The sandbox stopped (exit code ${code}): ${daemon.log().trim().split('\n').slice(-2).join(' ')}`,
				),
			),
		);
	});
	return { url: started.url, knownIds: started.knownIds, daemon };
}
