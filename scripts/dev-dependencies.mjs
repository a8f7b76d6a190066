// The project's dependencies for scripts/dev.mjs: installed with `npm ci` when
// node_modules is missing, differs from package-lock.json, or was built for
// another Node (n8n's native expression engine does not load). Plain
// JavaScript: it runs before the dependencies are there.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { fail, root, say } from './dev-node.mjs';

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

export function ensureDependencies(env) {
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
