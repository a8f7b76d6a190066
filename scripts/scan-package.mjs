// `npm run scan:package` (in .ci/run, after the build): the analysis of n8n's
// community-package scanner (@n8n/scan-community-package), run here on what a
// reviewer would scan: the source (package.json, nodes/, credentials/, the
// scanner's own file list) and the tarball `npm pack` makes. The scanner's
// other steps (the npm provenance statement, fetching the source repository
// it names) need a published package; .github/workflows/publish.yml publishes
// with provenance.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'outreach-scan-'));
try {
	const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
		cwd: root,
		encoding: 'utf8',
	}).trim();
	execFileSync('tar', ['xzf', path.join(work, tarball), '-C', work]);
	const runs = [
		{ label: 'source', result: await analyzePackage(root, SOURCE_FILE_PATTERNS) },
		{ label: `tarball ${tarball}`, result: await analyzePackage(path.join(work, 'package')) },
	];
	let failed = false;
	for (const { label, result } of runs) {
		// A scan that found nothing to read proves nothing.
		if (result.passed && result.message === 'No files found to analyze') result.passed = false;
		if (result.passed) {
			console.log(
				`scan-community-package analysis, ${label}: passed${result.message ? ` (${result.message})` : ''}`,
			);
		} else {
			failed = true;
			console.error(
				`scan-community-package analysis, ${label}: FAILED: ${result.message}\n${result.details ?? ''}`,
			);
		}
	}
	process.exitCode = failed ? 1 : 0;
} finally {
	rmSync(work, { recursive: true, force: true });
}
