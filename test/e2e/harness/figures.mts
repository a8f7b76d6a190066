// What the suites measured, scenario by scenario, written before their assertions: each suite and
// version keeps artifacts/e2e/re-runs/<suite>-<version>.json, and every write gathers all of them
// into artifacts/e2e/re-runs-figures.json, by version, then suite, with the commit they are of.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { ARTIFACTS, ROOT } from './n8n.mts';

const FOLDER = path.join(ARTIFACTS, 're-runs');
const kept = new Map<string, Record<string, unknown>>();
const build = () => {
	try {
		return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
			cwd: ROOT,
			encoding: 'utf8',
		}).trim();
	} catch {
		return 'unknown';
	}
};

export function recordFigures(
	suite: string,
	version: string,
	scenario: string,
	figures: Record<string, unknown>,
): void {
	const key = `${suite}-${version}`;
	const entry = kept.get(key) ?? { suite, version, build: build() };
	entry[scenario] = { ...figures, at: new Date().toISOString() };
	kept.set(key, entry);
	mkdirSync(FOLDER, { recursive: true });
	writeFileSync(path.join(FOLDER, `${key}.json`), `${JSON.stringify(entry, null, '\t')}\n`);
	const all: Record<string, Record<string, unknown>> = {};
	for (const file of readdirSync(FOLDER)
		.filter((name) => name.endsWith('.json'))
		.sort()) {
		try {
			const {
				suite: of,
				version: on,
				...rest
			} = JSON.parse(readFileSync(path.join(FOLDER, file), 'utf8')) as Record<string, string>;
			(all[on] ??= {})[of] = rest;
		} catch {
			// Another suite is writing it: its next write gathers it.
		}
	}
	writeFileSync(
		path.join(ARTIFACTS, 're-runs-figures.json'),
		`${JSON.stringify(all, null, '\t')}\n`,
	);
}
