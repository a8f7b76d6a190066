// `npm run release:check`: refuses to pass while anything only a publisher
// can fill in is still a placeholder (CONTRIBUTING.md › Releasing lists them).
// Each is written as __NAME__ in package.json, LICENSE, .github/workflows/,
// the README's and docs/' links to the repository, and the node's and the
// credential's documentation links (the README on GitHub), so nothing here
// guesses a URL or a name; n8n's own lint (no-template-placeholders) refuses
// <…> and {{…}} in package.json, so that form is not used. Exits 1 and names
// each one left.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const FILES = [
	'package.json',
	'LICENSE',
	'.github/workflows/publish.yml',
	'.github/workflows/ci.yml',
	'README.md',
	'credentials/OutreachSequencesApi.credentials.ts',
	'nodes/OutreachSequences/OutreachSequences.node.json',
	...readdirSync(path.join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

/** Every `__PLACEHOLDER__` in a text, with its line number. */
export function placeholders(text) {
	return text.split('\n').flatMap((line, index) =>
		[...line.matchAll(/__([A-Z][A-Z_]*[A-Z])__/g)].map((match) => ({
			line: index + 1,
			name: match[1],
		})),
	);
}

const left = FILES.flatMap((file) =>
	placeholders(readFileSync(path.join(root, file), 'utf8')).map(
		(found) => `${file}:${found.line}: __${found.name}__`,
	),
);
if (left.length) {
	console.error(
		`Not ready to release: ${left.length} placeholder(s) still to fill in (CONTRIBUTING.md › Releasing):\n${left.map((line) => `  ${line}`).join('\n')}`,
	);
	process.exit(1);
}
console.log(`release:check: no placeholders left in ${FILES.join(', ')}.`);
