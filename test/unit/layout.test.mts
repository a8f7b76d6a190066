// The layout under nodes/ (CONTRIBUTING.md › Architecture): what the editor shows (actions/,
// helpers/) never imports what sends; run/ and transport/ import helpers/, never actions/, and each
// room only the rooms after it; no import chain comes back to its file.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from '../../scripts/n8n/versions.mts';

const NODE = path.join(ROOT, 'nodes', 'OutreachSequences');
const EDITOR = ['actions', 'helpers'];
/** The send side's rooms, in order: each imports only those after it, and helpers/. */
const ROOMS = ['run/n8n', 'run/memory', 'run/loop', 'run/outcome', 'transport', 'run/pace'];

const files = (readdirSync(NODE, { recursive: true }) as string[]).filter((file) =>
	file.endsWith('.ts'),
);
/** The files of the node that `file` imports, relative to the node's folder. */
const importsOf = (file: string) =>
	[
		...readFileSync(path.join(NODE, file), 'utf8').matchAll(/^import [^;]*? from '(\.[^']+)';/gms),
	].map(([, target]) => path.relative(NODE, path.resolve(NODE, path.dirname(file), target)));
const roomOf = (file: string) => {
	const [top, sub] = file.split(path.sep);
	return top === 'run' ? `run/${sub}` : top;
};
const allowed = (room: string) =>
	EDITOR.includes(room) ? EDITOR : [...ROOMS.slice(ROOMS.indexOf(room) + 1), 'helpers'];

test("the node's folders are n8n's, and run/ holds the rooms", () => {
	expect(readdirSync(NODE).sort()).toEqual([
		'OutreachSequences.node.json',
		'OutreachSequences.node.ts',
		...EDITOR,
		'run',
		'transport',
	]);
	expect(
		readdirSync(path.join(NODE, 'run'))
			.map((room) => `run/${room}`)
			.sort(),
	).toEqual(ROOMS.filter((room) => room.startsWith('run/')).sort());
});

test.each(files.filter((file) => file.includes(path.sep)))(
	'%s imports only what its room may',
	(file) => {
		const room = roomOf(file);
		const rooms = importsOf(file).map(roomOf);
		expect(rooms.filter((target) => target !== room && !allowed(room).includes(target))).toEqual(
			[],
		);
	},
);

test('no file of the node imports itself back, through any chain of imports, types included', () => {
	const edges = new Map(
		files.map((file) => [file, importsOf(file).map((target) => target.replace(/(\.ts)?$/, '.ts'))]),
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
