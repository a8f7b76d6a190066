// The project needs nothing outside its repository to build or to pass
// `npm test` (a newcomer's clone has no ../shared beside it): only the check
// of the output schemas against the service's contract reads the contract,
// and it says in one line that it skipped when the document is not there.
// CI runs `npm test` with ../shared beside the clone, so this holds the rule
// for every other file; the newcomer e2e suite runs the README's `npm test`
// in a fresh clone without it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from '../../scripts/n8n/versions.mts';

/** The one file that may read the contract beside the repository. */
const READS_THE_CONTRACT = 'test/unit/output-schemas-contract.test.mts';
/** A path out of the repository into ../shared, written as a string or as path segments. */
const INTO_SHARED = /\.\.\/shared\b|['"]\.\.['"]\s*,\s*['"]shared['"]/;
/** A comment line, which may name the contract: it reads nothing. */
const COMMENT = /^\s*(#|\/\/|\/?\*)/;
/** What runs for the build and the tests: code, configs and the workflow fixtures. */
const RUNS = /\.(m?[jt]s|cjs|json|ya?ml)$/;

/** This file, which names the path it looks for. */
const ITSELF = 'test/unit/needs-no-shared.test.mts';

const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
	.split('\n')
	.filter((file) => RUNS.test(file) && !file.startsWith('.github/') && file !== ITSELF);

test('no file that builds or tests the project reaches into ../shared, but the contract check', () => {
	expect(tracked.length).toBeGreaterThan(100);
	const reaching = tracked.filter((file) =>
		readFileSync(path.join(ROOT, file), 'utf8')
			.split('\n')
			.some((line) => !COMMENT.test(line) && INTO_SHARED.test(line)),
	);
	expect(reaching).toEqual([READS_THE_CONTRACT]);
});
