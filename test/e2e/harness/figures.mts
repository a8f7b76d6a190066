// What the re-runs suites measured, scenario by scenario, whether their
// assertions then pass or not: each suite and version writes its own file,
// artifacts/e2e/re-runs/<suite>-<version>.json, and every write gathers all
// of them into artifacts/e2e/re-runs-figures.json, by version, then suite.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { ARTIFACTS, ROOT } from './n8n.mts';

const FOLDER = path.join(ARTIFACTS, 're-runs');
export const FIGURES_FILE = path.join(ARTIFACTS, 're-runs-figures.json');

interface SuiteFigures {
	suite: string;
	version: string;
	/** The commit the figures are of, for before-and-after. */
	build: string;
	scenarios: Record<string, unknown>;
}

const kept = new Map<string, SuiteFigures>();

/** This checkout's commit, and whether its files differ from it. */
function build(): string {
	try {
		const git = (...args: string[]) =>
			execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
		return `${git('rev-parse', '--short=12', 'HEAD')}${git('status', '--porcelain', '--', 'nodes') ? ' (nodes/ changed)' : ''}`;
	} catch {
		return 'unknown';
	}
}

/** Keeps one scenario's figures, written at once, before the test asserts anything. */
export function recordFigures(
	suite: string,
	version: string,
	scenario: string,
	figures: Record<string, unknown>,
): void {
	const key = `${suite}-${version}`;
	const entry = kept.get(key) ?? { suite, version, build: build(), scenarios: {} };
	entry.scenarios[scenario] = { ...figures, at: new Date().toISOString() };
	kept.set(key, entry);
	mkdirSync(FOLDER, { recursive: true });
	writeFileSync(path.join(FOLDER, `${key}.json`), `${JSON.stringify(entry, null, '\t')}\n`);
	gather();
}

/** Every suite's file, by version and suite, in one. */
function gather(): void {
	const all: Record<string, Record<string, Omit<SuiteFigures, 'suite' | 'version'>>> = {};
	for (const file of readdirSync(FOLDER)
		.filter((name) => name.endsWith('.json'))
		.sort()) {
		try {
			const { suite, version, ...rest } = JSON.parse(
				readFileSync(path.join(FOLDER, file), 'utf8'),
			) as SuiteFigures;
			(all[version] ??= {})[suite] = rest;
		} catch {
			// Another suite is writing it: its next write gathers it.
		}
	}
	writeFileSync(FIGURES_FILE, `${JSON.stringify(all, null, '\t')}\n`);
}
