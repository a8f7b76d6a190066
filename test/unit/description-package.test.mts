// The package around the node: the credential's names, which saved workflows
// store (written out here, not imported, so that renaming one fails this
// test), its and the codex's documentation links, the icons, package.json, and
// the example workflows.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { INodePropertyOptions } from 'n8n-workflow';

import { OutreachSequencesApi } from '../../credentials/OutreachSequencesApi.credentials.ts';
import { OutreachSequences } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

const ROOT = path.resolve(here, '..', '..');
const { description } = new OutreachSequences();
const credential = new OutreachSequencesApi();

test('credential', () => {
	expect(credential.name).toBe('outreachSequencesApi');
	expect(
		credential.properties.map((property) => [
			property.name,
			property.required,
			property.typeOptions?.password ?? false,
		]),
	).toEqual([
		['apiKey', true, true],
		['baseUrl', true, false],
	]);
	expect(credential.documentationUrl).toMatch(/^https:\/\//);
});

test("the credential's and the codex's documentation links lead to a heading of the README", () => {
	const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	// The anchors npm and GitHub give headings: lower case, punctuation dropped, spaces as hyphens.
	const anchors = [...readme.matchAll(/^#{1,4} (.+)$/gm)].map((match) =>
		match[1]
			.toLowerCase()
			.replace(/[^\p{L}\p{N} -]/gu, '')
			.replace(/ /g, '-'),
	);
	const codex = JSON.parse(
		readFileSync(path.join(ROOT, 'nodes/OutreachSequences/OutreachSequences.node.json'), 'utf8'),
	) as {
		resources: Record<string, Array<{ url: string }>>;
	};
	const links = [
		credential.documentationUrl as string,
		...Object.values(codex.resources)
			.flat()
			.map((resource) => resource.url),
	];
	// The repository's page on GitHub, which shows the README: it exists once the repository is public, before any release.
	const { repository } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		repository: { url: string };
	};
	for (const link of links) {
		const url = new URL(link);
		expect(url.origin + url.pathname).toBe(
			repository.url.replace(/^git\+/, '').replace(/\.git$/, ''),
		);
		if (url.hash) expect(anchors).toContain(url.hash.slice(1));
	}
	expect(links.some((link) => link.endsWith('#credential-outreach-sequences-api'))).toBe(true);
});

test('light and dark icons are two different files, and the codex names the node type', () => {
	const light = description.icon as { light: string; dark: string };
	const file = (reference: string) =>
		path.resolve(ROOT, 'dist/nodes/OutreachSequences', reference.replace(/^file:/, ''));
	expect(existsSync(file(light.light))).toBe(true);
	expect(existsSync(file(light.dark))).toBe(true);
	expect(readFileSync(file(light.light), 'utf8')).not.toBe(readFileSync(file(light.dark), 'utf8'));
	const credentialIcon = credential.icon as { light: string; dark: string };
	expect(
		existsSync(path.resolve(ROOT, 'dist/credentials', credentialIcon.light.replace(/^file:/, ''))),
	).toBe(true);

	const codex = JSON.parse(
		readFileSync(path.join(ROOT, 'nodes/OutreachSequences/OutreachSequences.node.json'), 'utf8'),
	);
	expect(codex.node).toBe('n8n-nodes-outreach-sequences.outreachSequences');
	expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
});

test('package.json: a verified community package with no runtime dependencies', () => {
	const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	expect(manifest).toMatchObject({
		name: 'n8n-nodes-outreach-sequences',
		license: 'MIT',
		files: ['dist'],
		peerDependencies: { 'n8n-workflow': '*' },
		n8n: { n8nNodesApiVersion: 1 },
	});
	expect(manifest.keywords).toContain('n8n-community-node-package');
	expect(manifest.dependencies).toBeUndefined();
	expect(manifest.overrides).toBeUndefined();
	for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
		expect(existsSync(path.join(ROOT, entry))).toBe(true);
	}
});

test('every example workflow uses an operation the node offers, and the sandbox credential', () => {
	const operations = new Set(
		description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options as INodePropertyOptions[]).map(
					(option) => `${property.displayOptions!.show!.resource![0]}:${option.value}`,
				),
			),
	);
	const folder = path.join(ROOT, 'examples');
	const used = new Set<string>();
	for (const file of readdirSync(folder).filter((name) => name.endsWith('.workflow.json'))) {
		const workflow = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
		for (const node of workflow.nodes.filter(
			(entry: { type: string }) => entry.type === 'n8n-nodes-outreach-sequences.outreachSequences',
		)) {
			const key = `${node.parameters.resource}:${node.parameters.operation ?? ''}`;
			expect(operations).toContain(key);
			expect(node.credentials.outreachSequencesApi.id).toBe('outreachSandbox');
			used.add(key);
		}
	}
	expect([...used].sort()).toEqual([...operations].sort());
});
