// Every link a reader can follow in the project's documents leads to a file of this repository
// that exists, and to a heading in it by GitHub's anchor rules. Links into the repository are
// relative (they work in a clone, on GitHub and on npm's page); an absolute one is refused. Links
// to other sites are not fetched. The credential's and the codex's links are the README on GitHub.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { DOCUMENTS, read, ROOT } from './doc-helpers.mts';

const REPOSITORY = (
	JSON.parse(read('package.json')) as { repository: { url: string } }
).repository.url
	.replace(/^git\+/, '')
	.replace(/\.git$/, '');
const withoutCode = (markdown: string) =>
	markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped (not - or _), spaces as hyphens. */
const slug = (heading: string) =>
	heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[`*]/g, '')
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\- _]/gu, '')
		.replace(/ /g, '-');

/** A Markdown file's anchors: its headings' (a repeated one gets -1, -2, …) and <a id> or <a name>. */
function anchorsOf(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = [...withoutCode(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map(
		([, heading]) => {
			const count = seen.get(slug(heading)) ?? 0;
			seen.set(slug(heading), count + 1);
			return count === 0 ? slug(heading) : `${slug(heading)}-${count}`;
		},
	);
	return new Set([
		...anchors,
		...[...markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)].map(([, id]) => id),
	]);
}

/** Why a link from `file` leads nowhere, or undefined. */
function brokenReason(file: string, target: string): string | undefined {
	const [address, anchor] = target.split('#') as [string, string | undefined];
	let local: string;
	if (/^https?:\/\//.test(address)) {
		const raw = REPOSITORY.replace('github.com', 'raw.githubusercontent.com');
		if (
			address.startsWith(`${REPOSITORY}/blob/main/`) ||
			address.startsWith(`${REPOSITORY}/tree/main/`) ||
			address.startsWith(`${raw}/main/`)
		)
			return 'an absolute link to a file of this repository';
		if (address !== REPOSITORY) return undefined;
		local = 'README.md';
	} else if (/^(mailto|tel):/.test(address)) return undefined;
	else if (address === '') local = file;
	else {
		local = path.posix.normalize(
			path.posix.join(path.posix.dirname(file), decodeURIComponent(address)),
		);
		if (local.startsWith('..')) return 'it leads out of the repository';
	}
	const absolute = path.join(ROOT, local);
	if (!existsSync(absolute)) return `${local} does not exist`;
	if (anchor === undefined) return undefined;
	if (statSync(absolute).isDirectory() || !local.endsWith('.md')) return `${local} has no headings`;
	return anchorsOf(readFileSync(absolute, 'utf8')).has(decodeURIComponent(anchor))
		? undefined
		: `${local} has no heading #${anchor}`;
}

/** Inline links and images, reference definitions, and references used without a definition, outside code. */
function linksOf(markdown: string): { targets: string[]; undefinedReferences: string[] } {
	const text = withoutCode(markdown).replace(/`[^`\n]*`/g, '');
	const inline = [
		...text.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
	];
	const defined = [...text.matchAll(/^ {0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)];
	const keys = new Set(defined.map(([, key]) => key.toLowerCase()));
	return {
		targets: [...inline.map(([, target]) => target), ...defined.map(([, , target]) => target)],
		undefinedReferences: [...text.matchAll(/\[([^\]]+)\]\[([^\]]*)\]/g)]
			.map(([, label, key]) => (key || label).toLowerCase())
			.filter((key) => !keys.has(key)),
	};
}

test.each(DOCUMENTS)('every link in %s leads to a file, and a heading, that exist', (file) => {
	const { targets, undefinedReferences } = linksOf(read(file));
	expect(targets.length).toBeGreaterThan(0);
	expect(
		targets.map((target) => [target, brokenReason(file, target)]).filter(([, reason]) => reason),
	).toEqual([]);
	expect(undefinedReferences).toEqual([]);
});

test("the credential's documentationUrl and the codex's links lead to the README's headings on GitHub", () => {
	const documentationUrl = /documentationUrl\s*=\s*'([^']+)'/.exec(
		read('credentials/OutreachSequencesApi.credentials.ts'),
	)?.[1];
	expect(documentationUrl).toBe(`${REPOSITORY}#credential-outreach-sequences-api`);
	const codex = JSON.parse(read('nodes/OutreachSequences/OutreachSequences.node.json')) as {
		resources: Record<string, Array<{ url: string }>>;
	};
	const links = [
		documentationUrl!,
		...Object.values(codex.resources)
			.flat()
			.map(({ url }) => url),
	];
	expect(
		links.filter(
			(target) => target.split('#')[0] !== REPOSITORY || brokenReason('README.md', target),
		),
	).toEqual([]);
});

test('each docs/ page is linked from the README', () => {
	const pages = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
	expect(pages.filter((page) => !read('README.md').includes(`docs/${page}`))).toEqual([]);
	// The developers' guide and the code refer to this page by its title.
	expect(read('docs/why-own-executor.md')).toMatch(/^# Why the node runs its own executor$/m);
});

test('the check finds a missing file or heading, an absolute link here, an undefined reference, and repeated headings', () => {
	expect(brokenReason('docs/errors.md', 'no-such-page.md')).toBe(
		'docs/no-such-page.md does not exist',
	);
	expect(brokenReason('CONTRIBUTING.md', '#nowhere')).toBe(
		'CONTRIBUTING.md has no heading #nowhere',
	);
	expect(brokenReason('README.md', `${REPOSITORY}/blob/main/docs/errors.md`)).toMatch(
		/^an absolute link/,
	);
	expect(linksOf('see [the page][missing] and `[code](x.md)`').undefinedReferences).toEqual([
		'missing',
	]);
	expect([...anchorsOf('# A: b\n```\n# not\n```\n# A: b\n<a id="c"></a>')]).toEqual([
		'a-b',
		'a-b-1',
		'c',
	]);
});
