// Node 24 for the project's commands (scripts/dev.mjs): the Node on PATH when
// it is 24 or later, else the npm registry's node-<platform>-<arch> package,
// fetched once into .cache/node24; and the environment that puts it first on
// PATH, with npm's configuration as Node 24's npm wants it. Plain JavaScript:
// it runs before Node 24 is there.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { machineGlobalConfig, userConfigWithoutNodedir } from './npm-config.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The Node that n8n 2.x needs; the patch release CI runs. */
export const NODE_MAJOR = 24;
const NODE_VERSION = '24.21.0';
const cacheDir = path.join(root, '.cache', 'node24');
/** Set once the toolchain is checked, so that nested npm scripts don't check again. */
export const READY = 'OUTREACH_DEV_READY';
/** The nodedir the user's npm config named, which npm no longer reads (see environmentFor). */
export const NPMRC_NODEDIR = 'OUTREACH_NPMRC_NODEDIR';

export const say = (text) => process.stderr.write(`▸ ${text}\n`);

export function fail(text) {
	process.stderr.write(`\n✖ ${text}\n`);
	process.exit(1);
}

export const major = (version) => Number(String(version).replace(/^v/, '').split('.')[0]);

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
export function node24() {
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
export function environmentFor(node) {
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
