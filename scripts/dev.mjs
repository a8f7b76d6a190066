// Every npm script of this project runs through this file:
//   node scripts/dev.mjs [--demo] '<shell command>' [arguments appended to it]
// It makes any common Node (18 and later) enough to work on the project:
// - Node 24, which n8n 2.x and the TypeScript scripts need: the Node on PATH
//   when it is 24 or later, else the npm registry's node-<platform>-<arch>
//   package, fetched once into .cache/node24;
// - the dependencies, installed with `npm ci` when node_modules is missing,
//   differs from package-lock.json, or was built for another Node;
// then it runs the command with that Node first on PATH, passes Ctrl-C and
// kill signals on, and exits with the command's status.
// `--demo` (npm start) first checks the state of an earlier `npm start` and
// the ports the demo needs (scripts/demo-preflight.mjs), before anything is
// installed or built. `node scripts/dev.mjs --env` prints the environment as
// shell exports (scripts/node24.sh).
// Plain JavaScript on purpose: it has to run before Node 24 and the
// dependencies are there. Node 24 and the environment: dev-node.mjs; the
// dependencies: dev-dependencies.mjs.
import { spawn } from 'node:child_process';

import { ensureDependencies } from './dev-dependencies.mjs';
import {
	environmentFor,
	fail,
	major,
	node24,
	NODE_MAJOR,
	NPMRC_NODEDIR,
	READY,
	root,
} from './dev-node.mjs';
import { groupAlive, signalGroup } from './process-groups.mjs';

/**
 * `'<command>' args…`: the command with npm's extra arguments appended, each
 * quoted for sh. A single command replaces the shell (exec), so that it gets
 * signals and its exit status as it is.
 */
const shellQuote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;

function commandLine(args) {
	const [command, ...rest] = args;
	const line = [command, ...rest.map(shellQuote)].join(' ');
	return /[;&|<>()$`]/.test(command) ? line : `exec ${line}`;
}

async function main() {
	// When the command was typed, for npm start's "ready after" (scripts/start.mts): Node 24 and npm ci count too.
	process.env.OUTREACH_STARTED_AT ??= String(Date.now());
	const args = process.argv.slice(2);
	if (args[0] === '--env') {
		const env = environmentFor(node24());
		for (const name of [
			'PATH',
			'npm_config_globalconfig',
			'npm_config_userconfig',
			'npm_package_config_node_gyp_nodedir',
			NPMRC_NODEDIR,
		]) {
			if (env[name] !== undefined && env[name] !== process.env[name])
				console.log(`export ${name}=${shellQuote(env[name])}`);
		}
		if (process.env.npm_config_nodedir !== undefined) console.log('unset npm_config_nodedir');
		return;
	}
	const demo = args[0] === '--demo';
	if (demo) args.shift();
	if (!args.length) fail("usage: node scripts/dev.mjs [--demo] '<shell command>' [arguments]");

	if (demo) {
		const { preflight } = await import('./demo-preflight.mjs');
		await preflight(root);
	}
	let env = process.env;
	if (process.env[READY] !== '1' || major(process.versions.node) < NODE_MAJOR) {
		env = environmentFor(node24());
		ensureDependencies(env);
	}

	// Its own process group: a signal reaches every process of the command,
	// not only the shell that runs it (a shell waiting for a command does not
	// pass signals on).
	const child = spawn('sh', ['-c', commandLine(args)], {
		cwd: process.cwd(),
		env,
		stdio: 'inherit',
		detached: true,
	});
	let forwarded = false;
	const forward = (signal) => {
		forwarded = true;
		signalGroup(child.pid, signal);
	};
	// npm passes Ctrl-C and kill on to its script, this process; Ctrl-C in a
	// terminal reaches it directly.
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => forward(signal));
	// npm killed outright (SIGKILL) passes nothing on: this process sees it go.
	const parent = process.ppid;
	const watch = setInterval(() => {
		if (process.ppid !== parent) forward('SIGTERM');
	}, 1000);
	child.on('exit', async (code, signal) => {
		clearInterval(watch);
		// After a signal, the command's processes finish stopping what they started before this one exits.
		if (forwarded) {
			const deadline = Date.now() + 60_000;
			while (groupAlive(child.pid) && Date.now() < deadline)
				await new Promise((resolve) => setTimeout(resolve, 100));
			if (groupAlive(child.pid)) forward('SIGKILL');
		}
		if (signal) {
			process.removeAllListeners(signal);
			process.kill(process.pid, signal);
		} else process.exit(code ?? 1);
	});
}

await main();
