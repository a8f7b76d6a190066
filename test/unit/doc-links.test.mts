// Every link a reader can follow in the project's documents leads somewhere:
// a file of this repository that exists, and a heading in it that exists, by
// GitHub's anchor rules. Links into this repository are relative, in the
// README too: they work in a clone and on GitHub, and npm's page resolves them
// against package.json's repository URL once its owner is filled in. An
// absolute link to a file of this repository is refused: it leads nowhere
// until then, and never from a clone. Links to other sites are not fetched.
// The credential's and the codex's documentation links are the repository's
// page on GitHub (its README), with the owner placeholder release:check
// refuses, checked the same way.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { DOCUMENTS, read, ROOT } from './doc-helpers.mts';

const manifest = JSON.parse(read('package.json')) as { name: string; repository: { url: string } };
/** https://github.com/<owner>/<name>, from package.json (its owner may still be a placeholder). */
const REPOSITORY = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const NPM_PAGE = `https://www.npmjs.com/package/${manifest.name}`;

/** The text a reader sees: fenced code blocks and inline code spans, where nothing is a link, left out. */
function prose(markdown: string): string {
	return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped (not - or _), spaces as hyphens. */
function slug(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[`*]/g, '')
		.trim();
	return text
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\- _]/gu, '')
		.replace(/ /g, '-');
}

/** Every anchor a Markdown file has: its headings' (a repeated one gets -1, -2, …) and explicit <a id> or <a name>. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
	for (const [, heading] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
		const base = slug(heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
	return anchors;
}

interface Link {
	file: string;
	target: string;
}

/** The links of a Markdown file: inline links and images, reference definitions, and reference uses without a definition. */
function linksOf(file: string, markdown: string): { links: Link[]; undefinedReferences: string[] } {
	const text = prose(markdown);
	const links: Link[] = [];
	for (const [, target] of text.matchAll(
		/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
	))
		links.push({ file, target });
	const definitions = new Set<string>();
	for (const [, key, target] of text.matchAll(
		/^ {0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm,
	)) {
		definitions.add(key.toLowerCase());
		links.push({ file, target });
	}
	const undefinedReferences = [...text.matchAll(/\[([^\]]+)\]\[([^\]]*)\]/g)]
		.map(([, label, key]) => (key || label).toLowerCase())
		.filter((key) => !definitions.has(key));
	return { links, undefinedReferences };
}

/** Why a link leads nowhere, or undefined when it leads to a file of this repository that exists, and to its heading. */
function brokenReason({ file, target }: Link): string | undefined {
	const [address, anchor] = splitAnchor(target);
	if (/^(mailto:|tel:)/.test(address)) return undefined;
	let local: string;
	if (/^https?:\/\//.test(address)) {
		const inRepository = new RegExp(`^${escape(REPOSITORY)}/(?:blob|tree)/main/(.+)$`).exec(
			address,
		);
		const raw = new RegExp(
			`^${escape(REPOSITORY.replace('https://github.com/', 'https://raw.githubusercontent.com/'))}/main/(.+)$`,
		).exec(address);
		if (inRepository ?? raw)
			return 'an absolute link to a file of this repository: make it relative, so that it works from a clone';
		if (address === REPOSITORY) local = 'README.md';
		else return undefined;
	} else if (address === '') {
		local = file;
	} else {
		local = path.posix.normalize(
			path.posix.join(path.posix.dirname(file), decodeURIComponent(address)),
		);
		if (local.startsWith('..')) return 'it leads out of the repository';
	}
	const absolute = path.join(ROOT, local);
	if (!existsSync(absolute)) return `${local} does not exist`;
	if (anchor === undefined) return undefined;
	if (statSync(absolute).isDirectory() || !local.endsWith('.md'))
		return `#${anchor} on ${local}, which has no headings`;
	return anchorsOf(readFileSync(absolute, 'utf8')).has(decodeURIComponent(anchor))
		? undefined
		: `${local} has no heading #${anchor}`;
}

function splitAnchor(target: string): [string, string | undefined] {
	const at = target.indexOf('#');
	return at === -1 ? [target, undefined] : [target.slice(0, at), target.slice(at + 1)];
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('every link in the documents leads to a file, and a heading, that exist', () => {
	test.each(DOCUMENTS)('%s', (file) => {
		const { links, undefinedReferences } = linksOf(file, read(file));
		expect(links.length).toBeGreaterThan(0);
		const broken = links
			.map((link) => [link.target, brokenReason(link)])
			.filter(([, reason]) => reason !== undefined);
		expect(broken).toEqual([]);
		expect(undefinedReferences).toEqual([]);
	});
});

test("the credential's documentationUrl and the codex's links lead to the README on GitHub, and its headings", () => {
	const credential = read('credentials/OutreachSequencesApi.credentials.ts');
	const documentationUrl = /documentationUrl\s*=\s*'([^']+)'/.exec(credential)?.[1];
	expect(documentationUrl).toBe(`${REPOSITORY}#credential-outreach-sequences-api`);
	const codex = JSON.parse(read('nodes/OutreachSequences/OutreachSequences.node.json')) as {
		resources: Record<string, Array<{ url: string }>>;
	};
	const links = [
		documentationUrl!,
		...Object.values(codex.resources)
			.flat()
			.map((resource) => resource.url),
	];
	for (const target of links) {
		// Not npm's page: it does not exist before the first release.
		expect(target.startsWith(NPM_PAGE)).toBe(false);
		expect(splitAnchor(target)[0]).toBe(REPOSITORY);
		expect([
			target,
			brokenReason({ file: 'credentials/OutreachSequencesApi.credentials.ts', target }),
		]).toEqual([target, undefined]);
	}
});

test('the docs/ pages the README must link to are there, each linked from the README', () => {
	const readme = read('README.md');
	const pages = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
	expect(pages.length).toBeGreaterThan(0);
	for (const page of pages) expect([page, readme.includes(`docs/${page}`)]).toEqual([page, true]);
	// The developers' guide and the code refer to this page by its title.
	expect(read('docs/why-own-executor.md')).toMatch(/^# Why the node runs its own executor$/m);
});

describe('the checks themselves', () => {
	test("GitHub's anchors: punctuation dropped, - and _ kept, repeated headings numbered", () => {
		expect(slug('Credential: Outreach Sequences API')).toBe('credential-outreach-sequences-api');
		expect(slug('Rate-limited, n8n 2.41.1')).toBe('rate-limited-n8n-2411');
		expect(slug('Flaky gateways: 500, 502, 504, resets and timeouts')).toBe(
			'flaky-gateways-500-502-504-resets-and-timeouts',
		);
		expect(slug('`N8N_PORT` and [the demo](x.md)')).toBe('n8n_port-and-the-demo');
		expect([...anchorsOf('# A\n## B\n```\n# not a heading\n```\n## B\n<a id="c"></a>')]).toEqual([
			'a',
			'b',
			'b-1',
			'c',
		]);
	});

	test('a broken link is found: a missing file, a missing heading, an absolute link to a file here, an undefined reference', () => {
		expect(brokenReason({ file: 'docs/errors.md', target: 'no-such-page.md' })).toBe(
			'docs/no-such-page.md does not exist',
		);
		expect(brokenReason({ file: 'docs/errors.md', target: 're-runs.md#no-such-heading' })).toBe(
			'docs/re-runs.md has no heading #no-such-heading',
		);
		expect(brokenReason({ file: 'CONTRIBUTING.md', target: '#no-such-heading' })).toBe(
			'CONTRIBUTING.md has no heading #no-such-heading',
		);
		expect(brokenReason({ file: 'README.md', target: 'docs/errors.md' })).toBeUndefined();
		expect(brokenReason({ file: 'README.md', target: 'docs/gone.md' })).toBe(
			'docs/gone.md does not exist',
		);
		expect(
			brokenReason({ file: 'README.md', target: `${REPOSITORY}/blob/main/docs/errors.md` }),
		).toMatch(/^an absolute link to a file of this repository/);
		expect(brokenReason({ file: 'README.md', target: `${REPOSITORY}#no-such-heading` })).toBe(
			'README.md has no heading #no-such-heading',
		);
		expect(
			brokenReason({ file: 'README.md', target: 'https://docs.n8n.io/anything' }),
		).toBeUndefined();
		expect(
			linksOf('x.md', 'see [the page][missing] and `[code](nowhere.md)`').undefinedReferences,
		).toEqual(['missing']);
		expect(
			linksOf('x.md', '```md\n[in a block](nowhere.md)\n```\n[real](here.md)').links.map(
				(link) => link.target,
			),
		).toEqual(['here.md']);
	});
});
