// What `npm start` (scripts/start.mts) runs and stops: the build and the
// other commands it runs to the end, the sandbox and n8n as long-running
// daemons, and the state file that names them (.n8n-local/start.json), so
// that the next start can stop what a killed one left. Ctrl-C, SIGINT,
// SIGTERM or SIGHUP, and its parent (npm) going away, stop everything once.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { portsInUseIn, stateFile, takenPortsText } from './demo-preflight.mjs';
import { LaunchError, ROOT } from './n8n/versions.mts';
import { n8nReason } from './n8n/cli.mts';
import type { Daemon } from './n8n/processes.mts';

/** The daemons this start started, the sandbox first: stopped in reverse order. */
export const daemons: Daemon[] = [];
const children = new Set<ChildProcess>();
let stopping: Promise<never> | undefined;
/** n8n's port, as the state file names it. */
let n8nPort = 0;

export function step(text: string): void {
	console.log(`\n▸ ${text}`);
}

/** Writes the state file: this process, n8n's port, and the process groups started so far. */
export function writeState(port = n8nPort): void {
	n8nPort = port;
	mkdirSync(path.dirname(stateFile(ROOT)), { recursive: true });
	const groups = daemons
		.map((daemon) => daemon.child.pid)
		.filter((pid): pid is number => pid !== undefined);
	writeFileSync(stateFile(ROOT), JSON.stringify({ pid: process.pid, n8nPort, groups }));
}

/** Stops everything this start started, once, then exits. */
export function shutdown(code: number, message?: string): Promise<never> {
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

/** Stops everything on Ctrl-C, SIGINT, SIGTERM or SIGHUP, and when npm, the parent, goes away. */
export function stopOnSignals(): void {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
		process.on(signal, () => void shutdown(0));
	// npm killed outright (SIGKILL) passes nothing on: its child sees it go.
	const parent = process.ppid;
	setInterval(() => {
		if (process.ppid !== parent) void shutdown(0);
	}, 1000).unref();
}

/** Runs a command to the end as part of this start; Ctrl-C stops it too. */
export function run(command: string, args: string[], what: string): Promise<void> {
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
export function n8nStoppedText(
	code: number | null,
	signal: NodeJS.Signals | null,
	log: string,
): string {
	const inUse = portsInUseIn(log);
	if (inUse.length) {
		return `n8n stopped as it started. ${takenPortsText(inUse)}\n  ${inUse.length === 1 ? 'It was' : 'They were'} free when npm start checked; another program took ${inUse.length === 1 ? 'it' : 'them'} since. Another npm start, or another n8n, may be running.`;
	}
	return `n8n stopped (${signal ?? `exit code ${code}`}). Its last lines: ${n8nReason({ code, stdout: log, stderr: '' })}`;
}

/** Polls until `check` holds, or fails when n8n stops first. */
export async function waitFor(
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
