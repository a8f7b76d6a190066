// CONTRIBUTING › Add an operation, followed in a temporary copy of the
// repository: it touches at most 6 files, each named; its blocks go into the
// files it names and nothing else changes; the copy builds, its tests that
// list operations pass as they are, and the new operation runs in n8n's
// engine against the copy's sandbox, which reads the copy's OpenAPI document.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

import type { INodePropertyOptions } from 'n8n-workflow';

import { seedData } from '../../sandbox/seed.mts';
import { createEngine, PACKAGE_DIR, stopEngine } from '../harness/engine.mts';
import type { Engine } from '../harness/engine.mts';
import { TEST_API_KEYS } from '../harness/keys.mts';
import { runFixture } from '../harness/workflows.mts';

/** What the build and the sandbox need; dist/ is built anew. */
const COPIED = [
	'package.json',
	'package-lock.json',
	'tsconfig.json',
	'gulpfile.js',
	'nodes',
	'credentials',
	'icons',
	'openapi',
	'sandbox',
	'scripts',
	'test',
	'jest.config.js',
	'tsconfig.test.json',
	'README.md',
	'examples',
];
/** The tests of the copy that list the operations: they pass with no edit. */
const LISTING_TESTS = ['test/unit/description.test.mts', 'test/unit/sandbox-routes.test.mts'];
const SCHEMAS = path.join('dist', 'nodes', 'OutreachSequences', '__schema__', 'v1.0.0', 'contact');

const contributing = readFileSync(path.join(PACKAGE_DIR, 'CONTRIBUTING.md'), 'utf8');
const start = contributing.indexOf('\n## Add an operation\n');
const section = contributing.slice(start, contributing.indexOf('\n## ', start + 1));
/** The files the recipe says it touches. */
const touched = [
	.../touches these files, and no other: (.+?)\.\s/.exec(section)![1].matchAll(/`([^`]+)`/g),
].map((match) => match[1]);

/** The recipe's code blocks, each with the file last named before it. */
function recipe(): Array<{ file: string; language: string; text: string }> {
	const blocks: Array<{ file: string; language: string; text: string }> = [];
	let before = 0;
	for (const match of section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)) {
		const named = [
			...section.slice(before, match.index).matchAll(/`([\w-]+\/[\w./-]+\.(?:yaml|ts))`/g),
		].map((file) => file[1]);
		blocks.push({ file: named[named.length - 1], language: match[1], text: match[2] });
		before = match.index + match[0].length;
	}
	return blocks;
}

const steps = recipe();
let copy: string;
let engine: Engine;
let sandbox: ChildProcess;
let url: string;

/** The copy's sandbox, as `npm run sandbox` starts it; resolves with its URL. */
async function startCopySandbox(): Promise<string> {
	sandbox = spawn(
		process.execPath,
		[path.join(copy, 'sandbox', 'cli.mts'), '--port', '0', '--key', TEST_API_KEYS.engine],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let errors = '';
	sandbox.stderr!.on('data', (chunk) => (errors += String(chunk)));
	return await new Promise<string>((resolve, reject) => {
		createInterface({ input: sandbox.stdout! }).once('line', (line) =>
			resolve((JSON.parse(line) as { url: string }).url),
		);
		sandbox.once('exit', (code) =>
			reject(new Error(`The copy's sandbox stopped (exit code ${code}): ${errors}`)),
		);
	});
}

beforeAll(async () => {
	copy = mkdtempSync(path.join(tmpdir(), 'outreach-add-operation-'));
	for (const entry of COPIED)
		cpSync(path.join(PACKAGE_DIR, entry), path.join(copy, entry), { recursive: true });
	symlinkSync(path.join(PACKAGE_DIR, 'node_modules'), path.join(copy, 'node_modules'));
	for (const step of steps) {
		const file = path.join(copy, step.file);
		if (step.language === 'yaml') {
			// Under `paths:`, after the last path: the document's components follow the paths.
			const document = readFileSync(file, 'utf8');
			const added = step.text.replace(/^(?=.)/gm, '  ');
			writeFileSync(file, document.replace(/^components:$/m, `${added}components:`));
		} else writeFileSync(file, step.text);
	}
	// The toolchain is this process's: npm run's own checks are skipped (scripts/dev.mjs).
	const env = {
		...process.env,
		OUTREACH_DEV_READY: '1',
		PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
	};
	const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: copy, env, encoding: 'utf8' });
	if (build.status !== 0)
		throw new Error(`npm run build failed in the copy:\n${build.stdout}\n${build.stderr}`);
	engine = await createEngine(copy);
	url = await startCopySandbox();
}, 180_000);

afterAll(async () => {
	sandbox?.kill();
	await stopEngine();
	if (copy) rmSync(copy, { recursive: true, force: true });
});

test('the recipe touches at most 6 files, each named; its blocks change only those, and nothing else changes', () => {
	expect(touched.length).toBeLessThanOrEqual(6);
	expect(new Set(touched).size).toBe(touched.length);
	expect(steps.map((step) => step.file).filter((file) => !touched.includes(file))).toEqual([]);
	expect(touched.filter((file) => !existsSync(path.join(PACKAGE_DIR, file)))).toEqual([
		'nodes/OutreachSequences/actions/contact/get.operation.ts',
	]);
	const changed = (entry: string): string[] => {
		const original = path.join(PACKAGE_DIR, entry);
		if (statSync(path.join(copy, entry)).isDirectory())
			return readdirSync(path.join(copy, entry)).flatMap((name) => changed(path.join(entry, name)));
		const same =
			existsSync(original) && readFileSync(original).equals(readFileSync(path.join(copy, entry)));
		return same ? [] : [entry];
	};
	expect(COPIED.flatMap(changed).sort()).toEqual(steps.map((step) => step.file).sort());
});

test("the copy's tests that list the operations pass as they are", () => {
	const jest = spawnSync(
		process.execPath,
		[
			'--experimental-vm-modules',
			'--disable-warning=ExperimentalWarning',
			'node_modules/jest/bin/jest.js',
			...LISTING_TESTS,
		],
		{ cwd: copy, encoding: 'utf8' },
	);
	expect([jest.status, jest.status === 0 ? '' : jest.stderr]).toEqual([0, '']);
});

test('the built node offers Contact › Get with its one field, Contact still defaults to Archive, and its output schema is a Contact', () => {
	const { properties } = engine.nodeType.description;
	const selector = properties.find(
		(property) =>
			property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === 'contact',
	)!;
	expect([
		selector.default,
		(selector.options as INodePropertyOptions[]).map((option) => option.action),
	]).toEqual(['archive', ['Archive a contact', 'Get a contact']]);
	const fields = properties.filter(
		(property) =>
			property.displayOptions?.show?.operation?.[0] === 'get' &&
			property.displayOptions.show.resource?.[0] === 'contact',
	);
	expect(fields.map((property) => [property.name, property.required ?? false])).toEqual([
		['contactId', true],
		['toolDescription', false],
	]);
	const schema = (operation: string) =>
		readFileSync(path.join(copy, SCHEMAS, `${operation}.json`), 'utf8');
	expect(schema('get')).toBe(schema('archive'));
});

test("it runs in n8n's engine against the sandbox, which serves getContact by its shape and changes nothing", async () => {
	const ids = ['c-42', 'a/b?c#d'];
	const run = await runFixture(engine, { url, apiKey: TEST_API_KEYS.engine }, 'contact-archive', {
		items: ids.map((id) => ({ id })),
		parameters: { operation: 'get' },
	});
	const seeded = seedData().contacts;
	expect(run.all.map((item) => item.json)).toEqual(
		ids.map((id) => seeded.find((contact) => contact.id === id)),
	);
	const { requests } = (await (await fetch(`${url}/__sandbox/requests`)).json()) as {
		requests: Array<{ method: string; url: string; operationId: string; status: number }>;
	};
	expect(
		requests.map((request) => [request.method, request.url, request.operationId, request.status]),
	).toEqual([
		['GET', '/v1/contacts/c-42', 'getContact', 200],
		['GET', '/v1/contacts/a%2Fb%3Fc%23d', 'getContact', 200],
	]);
});
