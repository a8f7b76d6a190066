// What users read (the README and docs/), beyond its links: its commands and
// examples name package.json's version, it names no test files, CI runs or
// n8n source files, and the README is at most 13.5 kB; and docs/ with
// CONTRIBUTING.md is at most 60 kB (CONTRIBUTING.md › Documentation).
import { DOCUMENTS, read } from './doc-helpers.mts';

test("the README's commands and examples name package.json's version", () => {
	const { version } = JSON.parse(read('package.json')) as { version: string };
	const named = [
		...read('README.md').matchAll(
			/n8n-nodes-outreach-sequences-(\d+\.\d+\.\d+)\.tgz|"version":\s*"(\d+\.\d+\.\d+)"/g,
		),
	].map((match) => match[1] ?? match[2]);
	expect(named.length).toBeGreaterThan(0);
	expect(named.filter((named) => named !== version)).toEqual([]);
});

test('what users read names no test files, CI, or n8n source files', () => {
	const userText = ['README.md', ...DOCUMENTS.filter((file) => file.startsWith('docs/'))];
	const internals = [
		/\.e2e\.mts/,
		/\.test\.mts/,
		/\.ci\/run/,
		/\bCUBIC\b/,
		/routing-node/,
		/node-api\.error/,
		/\bmeasured\b/i,
		/registry this project/,
		/\bin CI\b/,
	];
	const found = userText.flatMap((file) =>
		internals.filter((pattern) => pattern.test(read(file))).map((pattern) => `${file}: ${pattern}`),
	);
	expect(found).toEqual([]);
});

test('the README stays short: at most 13.5 kB, as wc -c counts it', () => {
	expect(Buffer.byteLength(read('README.md'), 'utf8')).toBeLessThanOrEqual(13_500);
});

test('docs/*.md and CONTRIBUTING.md stay short: at most 60 kB together, as wc -c counts them', () => {
	const files = DOCUMENTS.filter((file) => file.startsWith('docs/') || file === 'CONTRIBUTING.md');
	const bytes = files.map((file) => Buffer.byteLength(read(file), 'utf8'));
	expect(bytes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(60_000);
});
