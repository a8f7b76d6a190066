// The npm configuration scripts/dev.mjs hands to Node 24's npm: the machine's
// global config, and the user's config without the `nodedir` npm 11 warns
// about. Plain JavaScript, as scripts/dev.mjs is: it runs before Node 24.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The npm global config the machine's own Node uses (a CA file, a registry), kept when another Node runs npm. */
export function machineGlobalConfig(root) {
	const result = spawnSync('npm', ['config', 'get', 'globalconfig'], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const file = result.status === 0 ? result.stdout.trim() : '';
	return file && existsSync(file) ? file : undefined;
}

/**
 * When the npm user config sets `nodedir`, a copy of it without that line, in
 * .cache/npmrc (readable by its owner only, as it may hold a token), and the
 * nodedir it named; else undefined.
 */
export function userConfigWithoutNodedir(file, root) {
	if (path.resolve(file) === path.join(root, '.cache', 'npmrc') || !existsSync(file))
		return undefined;
	const lines = readFileSync(file, 'utf8').split(/\r?\n/);
	const isNodedir = (line) => /^\s*nodedir\s*=/.test(line);
	const line = lines.find(isNodedir);
	if (line === undefined) return undefined;
	const copy = path.join(root, '.cache', 'npmrc');
	mkdirSync(path.dirname(copy), { recursive: true });
	const text = `${lines.filter((candidate) => !isNodedir(candidate)).join('\n')}\n`;
	// Written whole and renamed into place: npm scripts running side by side read it.
	if (!existsSync(copy) || readFileSync(copy, 'utf8') !== text) {
		const partial = `${copy}.${process.pid}`;
		writeFileSync(partial, text, { mode: 0o600 });
		renameSync(partial, copy);
	}
	return { file: copy, nodedir: line.slice(line.indexOf('=') + 1).trim() };
}
