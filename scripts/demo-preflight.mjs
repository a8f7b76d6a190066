// What `npm start` checks before it installs, builds or imports anything:
// - an earlier `npm start`: still running (then this one stops), or killed
//   without cleaning up (then the n8n and sandbox it left are stopped);
// - every port the demo needs: when one is taken, it says which, the variable
//   that moves it, and that another `npm start` may be running, and stops.
// scripts/start.mts checks n8n's ports again right before n8n starts, and
// reads n8n's own "port … is already in use", with the same words.
// Plain JavaScript: it runs on whatever Node the user has (scripts/dev.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { groupAlive, stopGroup } from './process-groups.mjs';

/** The state file a running `npm start` keeps (scripts/start.mts writes it). */
export const stateFile = (root) => path.join(root, '.n8n-local', 'start.json');

/** The demo's ports, their defaults and the variables that move them. */
export function demoPorts(env = process.env) {
	return [
		{
			what: "n8n's editor and API",
			variable: 'N8N_PORT',
			port: Number(env.N8N_PORT ?? 5678),
			host: '0.0.0.0',
		},
		{
			what: "n8n's task broker (for its Code node runners)",
			variable: 'N8N_RUNNERS_BROKER_PORT',
			port: Number(env.N8N_RUNNERS_BROKER_PORT ?? 5679),
			host: '127.0.0.1',
		},
		{
			what: 'the sandbox (the stand-in for the outreach service)',
			variable: 'SANDBOX_PORT',
			port: Number(env.SANDBOX_PORT ?? 4010),
			host: '127.0.0.1',
		},
	];
}

/** Whether something already listens where the demo would: the same bind n8n or the sandbox makes fails. */
export function isTaken({ port, host }) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', (error) =>
			resolve(error.code === 'EADDRINUSE' || error.code === 'EACCES'),
		);
		server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(false)));
	});
}

/** Whether `pid` is alive and is a `npm start` of this project, not another process that got its number. */
export function isStartProcess(pid) {
	try {
		process.kill(pid, 0);
	} catch (error) {
		if (error.code !== 'EPERM') return false;
	}
	try {
		return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).includes(
			'start.mts',
		);
	} catch {
		return false;
	}
}

/** The demo's ports among `entries` that something else listens on now. */
export async function takenPorts(entries = demoPorts()) {
	const taken = [];
	for (const entry of entries) if (await isTaken(entry)) taken.push(entry);
	return taken;
}

/**
 * The demo's ports that n8n's output says were in use when it started:
 * "n8n's port 5678 is already in use", "n8n Task Broker's port 5679 is already in use".
 */
export function portsInUseIn(output, entries = demoPorts()) {
	const ports = new Set(
		[...output.matchAll(/port (\d+) is already in use/gi)].map((match) => Number(match[1])),
	);
	return entries.filter((entry) => ports.has(entry.port));
}

/** What the start-up check says of taken ports: each port, what it is for, and the variable that moves it. */
export function takenPortsText(taken) {
	const lines = taken.map(
		({ port, what, variable }) =>
			`  • port ${port}, for ${what}: set ${variable} to use another, for example ${variable}=${port + 100} npm start`,
	);
	return `${taken.length === 1 ? 'A port' : 'Ports'} that npm start needs ${taken.length === 1 ? 'is' : 'are'} taken by another program:\n${lines.join('\n')}`;
}

function stop(text) {
	process.stderr.write(`\n✖ ${text}\n`);
	process.exit(1);
}

export async function preflight(root) {
	const file = stateFile(root);
	/** Whether what an earlier, killed start left was stopped just now. */
	let cleaned = false;
	if (existsSync(file)) {
		let state = {};
		try {
			state = JSON.parse(readFileSync(file, 'utf8'));
		} catch {
			// a state file cut short by a kill: nothing in it to stop
		}
		if (state.pid && isStartProcess(state.pid)) {
			stop(
				`npm start is already running (process ${state.pid}), with n8n at http://localhost:${state.n8nPort ?? 5678}.\n` +
					'  Use that one, or stop it first: Ctrl-C in its terminal, or `kill ' +
					state.pid +
					'`.',
			);
		}
		const left = (state.groups ?? []).filter(groupAlive);
		if (left.length) {
			process.stderr.write(
				`▸ An earlier npm start (process ${state.pid}) ended without stopping what it had started; stopping it now …\n`,
			);
			await Promise.all(left.map(stopGroup));
			const still = left.filter(groupAlive);
			process.stderr.write(
				still.length
					? `  ${still.length} of its process groups did not stop: ${still.join(', ')}.\n`
					: '  Stopped.\n',
			);
			cleaned = true;
		}
		rmSync(file, { force: true });
	}

	const taken = await takenPorts();
	if (taken.length) {
		stop(
			`${takenPortsText(taken)}\n  Another npm start, or another n8n, may be running. ${cleaned ? 'Nothing else was changed.' : 'Nothing was changed.'}`,
		);
	}
}
