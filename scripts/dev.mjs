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
// dependencies are there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { machineGlobalConfig, userConfigWithoutNodedir } from './npm-config.mjs';
import { groupAlive, signalGroup } from './process-groups.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The Node that n8n 2.x needs; the patch release CI runs. */
const NODE_MAJOR = 24;
const NODE_VERSION = '24.21.0';
const cacheDir = path.join(root, '.cache', 'node24');
/** Set once the toolchain is checked, so that nested npm scripts don't check again. */
const READY = 'OUTREACH_DEV_READY';
/** The nodedir the user's npm config named, which npm no longer reads (see environmentFor). */
const NPMRC_NODEDIR = 'OUTREACH_NPMRC_NODEDIR';

const say = (text) => process.stderr.write(`▸ ${text}\n`);

function fail(text) {
	process.stderr.write(`\n✖ ${text}\n`);
	process.exit(1);
}

const major = (version) => Number(String(version).replace(/^v/, '').split('.')[0]);

/** The registry package that holds a Node binary for this machine, as `npm install node` uses. */
function nodePackage() {
	const platforms = { linux: 'linux', darwin: 'darwin' };
	const arches = { x64: 'x64', arm64: 'arm64' };
	const platform = platforms[process.platform];
	const arch = arches[process.arch];
	if (!platform || !arch) return undefined;
	return `node-${platform}-${arch}`;
}

/** Node 24 for this project: the one running, or the one in .cache/node24, fetched when missing. */
function node24() {
	if (major(process.versions.node) >= NODE_MAJOR) return { bin: process.execPath, fetched: false };
	const name = nodePackage();
	if (!name)
		fail(
			`This project needs Node.js ${NODE_MAJOR}, and this machine (${process.platform} ${process.arch}) has no Node package on the npm registry. Install Node.js ${NODE_MAJOR} and run the command again.`,
		);
	const home = path.join(cacheDir, 'node_modules', name);
	const bin = path.join(home, 'bin', 'node');
	const runs = (candidate) =>
		spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout?.trim();
	if (existsSync(bin) && major(runs(bin)) === NODE_MAJOR) return { bin, home, fetched: true };

	say(
		`This shell's Node is ${process.version}; the project needs Node ${NODE_MAJOR}. Fetching Node ${NODE_VERSION} from the npm registry (${name}, about 30 MB) into .cache/node24 …`,
	);
	// Into a fresh folder that replaces the old one only when complete: an
	// interrupted download leaves nothing half-made.
	const partial = `${cacheDir}.partial`;
	rmSync(partial, { recursive: true, force: true });
	mkdirSync(partial, { recursive: true });
	const install = spawnSync(
		'npm',
		[
			'install',
			'--prefix',
			partial,
			'--no-save',
			'--no-package-lock',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			`${name}@${NODE_VERSION}`,
		],
		// npm's own output goes to stderr: `--env`'s stdout is evaluated by a shell.
		{ cwd: partial, stdio: ['ignore', 2, 'inherit'] },
	);
	if (
		install.status !== 0 ||
		major(runs(path.join(partial, 'node_modules', name, 'bin', 'node'))) !== NODE_MAJOR
	) {
		rmSync(partial, { recursive: true, force: true });
		fail(
			`Fetching Node ${NODE_VERSION} (npm install ${name}@${NODE_VERSION}) failed. Install Node.js ${NODE_MAJOR} yourself (for example with nvm: \`nvm install ${NODE_MAJOR}\`), then run the command again.`,
		);
	}
	rmSync(cacheDir, { recursive: true, force: true });
	renameSync(partial, cacheDir);
	return { bin, home, fetched: true };
}

/** The environment for commands that must run on Node 24. */
function environmentFor(node) {
	const env = { ...process.env, [READY]: '1' };
	// npm hands its config to scripts as npm_config_* variables, and the npm
	// inside a script warns about a nodedir there ("Unknown env config"):
	// node-gyp reads it under its own name, which npm leaves alone.
	if (env.npm_config_nodedir !== undefined) {
		env.npm_package_config_node_gyp_nodedir ??= env.npm_config_nodedir;
		delete env.npm_config_nodedir;
	}
	// npm 11 (Node 24's) warns at every command about a nodedir in the user's
	// ~/.npmrc ("Unknown user config"): npm runs with a copy that leaves it
	// out. node-gyp gets it under its own name, and the n8n install, whose
	// sqlite3 build has a node-gyp that reads only npm_config_nodedir, under
	// NPMRC_NODEDIR (scripts/n8n/install.mts).
	const userConfig = env.npm_config_userconfig ?? path.join(os.homedir(), '.npmrc');
	const withoutNodedir = userConfigWithoutNodedir(userConfig, root);
	if (withoutNodedir) {
		env.npm_config_userconfig = withoutNodedir.file;
		if (withoutNodedir.nodedir) {
			env.npm_package_config_node_gyp_nodedir ??= withoutNodedir.nodedir;
			env[NPMRC_NODEDIR] ??= withoutNodedir.nodedir;
		}
	}
	if (!node.fetched) return env;
	env.PATH = `${path.dirname(node.bin)}${path.delimiter}${process.env.PATH ?? ''}`;
	// npm looks for its global config beside the Node that runs it.
	const globalConfig = process.env.npm_config_globalconfig ?? machineGlobalConfig(root);
	if (globalConfig) env.npm_config_globalconfig = globalConfig;
	// Native addons (sqlite3 for n8n) are built against this Node's headers.
	env.npm_package_config_node_gyp_nodedir = node.home;
	return env;
}

/** Lock entries whose installed version differs or is missing; optional ones (other platforms) may be absent. */
function staleDependencies() {
	const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
	const stale = [];
	for (const [key, entry] of Object.entries(lock.packages ?? {})) {
		if (!key.startsWith('node_modules/') || entry.link) continue;
		let installed;
		try {
			installed = JSON.parse(readFileSync(path.join(root, key, 'package.json'), 'utf8')).version;
		} catch {
			if (!entry.optional) stale.push(`${key.slice('node_modules/'.length)} (missing)`);
			continue;
		}
		if (installed !== entry.version)
			stale.push(`${key.slice('node_modules/'.length)} (${installed}, locked ${entry.version})`);
	}
	return stale;
}

/** n8n-core's expression engine is a native addon: it must load in the Node the tests run on. */
function nativeAddonsLoad(env) {
	return (
		spawnSync('node', ['-e', "require('isolated-vm')"], { cwd: root, env, stdio: 'ignore' })
			.status === 0
	);
}

function npmCi(env, why) {
	say(
		`${why} Installing them with npm ci (about a minute the first time, faster from npm's cache) …`,
	);
	const started = Date.now();
	const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: root,
		env,
		stdio: ['ignore', 2, 'inherit'],
	});
	if (result.status !== 0) {
		fail(
			'npm ci failed (its message is above). If package.json was changed, run `npm install` to update package-lock.json, then the command again.',
		);
	}
	say(`Dependencies installed in ${Math.round((Date.now() - started) / 1000)} s.`);
}

function ensureDependencies(env) {
	if (!existsSync(path.join(root, 'node_modules'))) {
		npmCi(env, 'The dependencies are not installed yet.');
	} else {
		const stale = staleDependencies();
		if (stale.length) {
			const some = stale.slice(0, 3).join(', ');
			npmCi(
				env,
				`The installed dependencies don't match package-lock.json: ${some}${stale.length > 3 ? ` and ${stale.length - 3} more` : ''}.`,
			);
		}
	}
	if (!nativeAddonsLoad(env)) {
		npmCi(
			env,
			`The dependencies were installed for another Node than ${spawnSync('node', ['--version'], { env, encoding: 'utf8' }).stdout.trim()}.`,
		);
		if (!nativeAddonsLoad(env))
			fail("isolated-vm, n8n's expression engine, still does not load after npm ci.");
	}
}

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
