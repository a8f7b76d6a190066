// sqlite3's native addon, built once per sqlite3 version and Node ABI for
// every n8n install: n8n 2.x and 1.x name the same sqlite3, and its build is
// the longest step of an install on a small machine (one to four minutes).
// The addon is kept in .cache/sqlite3-<version>-abi<n>/; an install that
// finds it there, or that waits for another install in this process building
// it, copies it instead of building.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';

import { npm } from './install.mts';
import { ROOT } from './versions.mts';

const ADDON = path.join('build', 'Release', 'node_sqlite3.node');
const building = new Map<string, Promise<string>>();

/** The ABI of the Node that runs n8n: `nodeBin`'s, or this process's. */
function abiOf(nodeBin?: string): string {
	if (!nodeBin) return process.versions.modules;
	const result = spawnSync(nodeBin, ['-p', 'process.versions.modules'], { encoding: 'utf8' });
	return result.stdout.trim() || `unknown-${path.basename(path.dirname(path.dirname(nodeBin)))}`;
}

/** Builds sqlite3 in `installDir` for the Node that runs n8n, or copies the addon built for it before. */
export async function buildSqlite3(
	installDir: string,
	env: NodeJS.ProcessEnv,
	options: { nodeBin?: string; log: (line: string) => void },
): Promise<void> {
	const sqlite3 = path.join(installDir, 'node_modules', 'sqlite3');
	const { version } = JSON.parse(readFileSync(path.join(sqlite3, 'package.json'), 'utf8')) as {
		version: string;
	};
	const key = `${version}-abi${abiOf(options.nodeBin)}-${process.platform}-${process.arch}`;
	const kept = path.join(ROOT, '.cache', `sqlite3-${key}`, 'node_sqlite3.node');
	const copyKept = () => {
		mkdirSync(path.dirname(path.join(sqlite3, ADDON)), { recursive: true });
		copyFileSync(kept, path.join(sqlite3, ADDON));
	};
	const earlier = building.get(key);
	if (earlier) await earlier.catch(() => undefined);
	if (existsSync(kept)) {
		options.log(`  sqlite3 ${version}: the addon built before for this Node, copied.`);
		copyKept();
		return;
	}
	const build = (async () => {
		options.log(`  Building sqlite3 for the Node that runs n8n …`);
		await npm(['rebuild', 'sqlite3', '--loglevel=error'], {
			cwd: installDir,
			env,
			what: 'Building sqlite3',
		});
		mkdirSync(path.dirname(kept), { recursive: true });
		copyFileSync(path.join(sqlite3, ADDON), `${kept}.partial`);
		renameSync(`${kept}.partial`, kept);
		return kept;
	})();
	building.set(key, build);
	await build;
}
