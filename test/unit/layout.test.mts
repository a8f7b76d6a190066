// The layout under nodes/ (CONTRIBUTING.md › Architecture): what the editor
// shows never loads what sends, and what sends never reaches into the operations.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from '../../scripts/n8n/versions.mts';

const NODE = path.join(ROOT, 'nodes', 'OutreachSequences');

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? sources(path.join(dir, entry.name))
			: entry.name.endsWith('.ts')
				? [path.join(dir, entry.name)]
				: [],
	);
}

/** The files of the node that `file` imports, relative to the node's folder. */
function importsOf(file: string): string[] {
	return [...readFileSync(file, 'utf8').matchAll(/^import [^;]*? from '(\.[^']+)';/gms)].map(
		(match) => path.relative(NODE, path.resolve(path.dirname(file), match[1])),
	);
}

const stack = (relative: string) => relative.split(path.sep)[0];

/** What the editor loads (the operations and what they share), and what sends. */
const DESCRIBE = ['actions', 'helpers'];
const SEND = ['run', 'transport'];

test.each(
	sources(NODE)
		.map((file) => path.relative(NODE, file))
		.filter((file) => DESCRIBE.includes(stack(file))),
)('%s imports nothing from run/ or transport/', (file) => {
	expect(importsOf(path.join(NODE, file)).filter((target) => SEND.includes(stack(target)))).toEqual(
		[],
	);
});

test.each(
	sources(NODE)
		.map((file) => path.relative(NODE, file))
		.filter((file) => SEND.includes(stack(file))),
)('%s imports nothing from actions/', (file) => {
	const targets = importsOf(path.join(NODE, file));
	expect(targets.filter((target) => ![...SEND, 'helpers'].includes(stack(target)))).toEqual([]);
});

test("the node's folders are n8n's: actions/, helpers/, transport/, and the executor's run/", () => {
	expect(readdirSync(NODE).sort()).toEqual([
		'OutreachSequences.node.json',
		'OutreachSequences.node.ts',
		'actions',
		'helpers',
		'run',
		'transport',
	]);
});

/**
 * The send side's rooms, and the rooms each may import (besides helpers/ and
 * its own): CONTRIBUTING.md › Architecture. Read down the list, no room
 * imports one above it, so no two rooms import each other.
 */
const ROOMS: Record<string, string[]> = {
	'run/n8n': ['run/memory', 'run/loop', 'run/outcome', 'transport', 'run/pace'],
	'run/memory': ['run/loop', 'run/outcome', 'transport', 'run/pace'],
	'run/loop': ['run/outcome', 'transport', 'run/pace'],
	'run/outcome': ['transport', 'run/pace'],
	transport: ['run/pace'],
	'run/pace': [],
};
const roomOf = (relative: string) =>
	stack(relative) === 'run' ? relative.split(path.sep).slice(0, 2).join('/') : stack(relative);

test('run/ holds exactly these rooms', () => {
	expect(readdirSync(path.join(NODE, 'run')).sort()).toEqual(
		Object.keys(ROOMS)
			.filter((room) => room.startsWith('run/'))
			.map((room) => room.slice(4))
			.sort(),
	);
});

test.each(
	sources(NODE)
		.map((file) => path.relative(NODE, file))
		.filter((file) => SEND.includes(stack(file))),
)('%s imports only the rooms below its own', (file) => {
	const room = roomOf(file);
	const rooms = importsOf(path.join(NODE, file))
		.filter((target) => SEND.includes(stack(target)))
		.map(roomOf);
	expect(rooms.filter((target) => target !== room && !ROOMS[room].includes(target))).toEqual([]);
});

test('no file of the node imports itself back, through any chain of imports, types included', () => {
	const files = sources(NODE).map((file) => path.relative(NODE, file));
	const edges = new Map(
		files.map((file) => [
			file,
			importsOf(path.join(NODE, file)).map((target) =>
				target.endsWith('.ts') ? target : `${target}.ts`,
			),
		]),
	);
	const circles: string[] = [];
	const walk = (file: string, chain: string[]) => {
		if (chain.includes(file)) {
			if (file === chain[0]) circles.push([...chain, file].join(' → '));
			return;
		}
		if (chain.length > 0 && file < chain[0]) return;
		for (const next of edges.get(file) ?? []) walk(next, [...chain, file]);
	};
	for (const file of files) walk(file, []);
	expect(circles).toEqual([]);
});
