// The house's size bar (CONTRIBUTING.md): every code file Prettier formats,
// shipped or not, is at most 250 lines. `npm run lint` checks that each is as
// Prettier writes it, so the count here is the count after Prettier.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from '../../scripts/n8n/versions.mts';

const MAX_LINES = 250;
const CODE = /\.(ts|mts|js|mjs|cjs)$/;
/** What .prettierignore leaves out, and what is not the project's own. */
const NOT_OURS = new Set(['node_modules', 'dist', '.cache', 'artifacts', 'coverage', '.n8n-local']);

function codeFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		if (entry.name.startsWith('.git') || NOT_OURS.has(entry.name)) return [];
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return codeFiles(full);
		return CODE.test(entry.name) ? [full] : [];
	});
}

const lineCount = (file: string) =>
	readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;

test('the walk finds the code of every part of the project', () => {
	const parts = new Set(
		codeFiles(ROOT).map((file) => path.relative(ROOT, file).split(path.sep)[0]),
	);
	for (const part of ['nodes', 'credentials', 'test', 'scripts', 'sandbox', 'bench'])
		expect(parts).toContain(part);
});

test(`every code file is at most ${MAX_LINES} lines`, () => {
	const over = codeFiles(ROOT)
		.map((file) => `${path.relative(ROOT, file)} (${lineCount(file)})`)
		.filter((entry) => Number(/\((\d+)\)$/.exec(entry)![1]) > MAX_LINES);
	expect(over).toEqual([]);
});
