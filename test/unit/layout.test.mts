// The two stacks under nodes/ (CONTRIBUTING.md › Architecture): what the
// editor shows never loads what runs, and the run side never reaches into
// the operations.
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

test.each(
	sources(NODE)
		.map((file) => path.relative(NODE, file))
		.filter((file) => ['describe', 'resources'].includes(stack(file))),
)('%s imports nothing from run/', (file) => {
	expect(importsOf(path.join(NODE, file)).filter((target) => stack(target) === 'run')).toEqual([]);
});

test.each(sources(path.join(NODE, 'run')).map((file) => path.relative(NODE, file)))(
	'%s imports nothing from resources/',
	(file) => {
		const targets = importsOf(path.join(NODE, file));
		expect(targets.filter((target) => stack(target) === 'resources')).toEqual([]);
		expect(targets.every((target) => ['run', 'describe'].includes(stack(target)))).toBe(true);
	},
);

test('the two stacks are folders of their own', () => {
	expect(readdirSync(NODE).sort()).toEqual([
		'OutreachSequences.node.json',
		'OutreachSequences.node.ts',
		'describe',
		'resources',
		'run',
	]);
});

/**
 * The run side's rooms, and the rooms each may import (besides describe/ and
 * its own): CONTRIBUTING.md › Architecture. Read down the list, no room
 * imports one above it, so no two rooms import each other.
 */
const RUN_ROOMS: Record<string, string[]> = {
	n8n: ['memory', 'loop', 'outcome', 'http', 'pace'],
	memory: ['loop', 'outcome', 'http', 'pace'],
	loop: ['outcome', 'http', 'pace'],
	outcome: ['http', 'pace'],
	http: ['pace'],
	pace: [],
};

test('run/ holds exactly these rooms', () => {
	expect(readdirSync(path.join(NODE, 'run')).sort()).toEqual(Object.keys(RUN_ROOMS).sort());
});

test.each(sources(path.join(NODE, 'run')).map((file) => path.relative(NODE, file)))(
	'%s imports only the rooms below its own',
	(file) => {
		const room = file.split(path.sep)[1];
		const rooms = importsOf(path.join(NODE, file))
			.filter((target) => stack(target) === 'run')
			.map((target) => target.split(path.sep)[1]);
		expect(rooms.filter((target) => target !== room && !RUN_ROOMS[room].includes(target))).toEqual(
			[],
		);
	},
);

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
