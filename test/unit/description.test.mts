// What the editor shows and saved workflows store. The stored names are
// written out here, not imported, so that renaming one fails; an operation
// added is found from the registered ones.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { OutreachSequencesApi } from '../../credentials/OutreachSequencesApi.credentials.ts';
import {
	operations,
	OutreachSequences,
} from '../../nodes/OutreachSequences/OutreachSequences.node.ts';
import { batchingOf } from '../../nodes/OutreachSequences/run/n8n/settings.ts';
import { ROOT } from '../../scripts/n8n/versions.mts';

const { description } = new OutreachSequences();
const credential = new OutreachSequencesApi();
const json = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

type Shown = { default?: unknown; description?: string; hint?: string };
/** Every property and option, nested ones too, by its path of stored names (`a.b=value` for an option). */
function walk(properties: INodeProperties[], prefix = ''): Array<[string, Shown]> {
	return properties.flatMap((property) => {
		const at = `${prefix}${property.name}`;
		const nested = (property.options ?? []).flatMap((option): Array<[string, Shown]> => {
			if ('values' in option) return walk(option.values, `${at}.${option.name}.`);
			if ('type' in option) return walk([option], `${at}.`);
			return [[`${at}=${String((option as INodePropertyOptions).value)}`, option]];
		});
		return [[at, property], ...nested];
	});
}
const all = walk(description.properties);
const stored = new Set(all.map(([at]) => at));
const selectors = description.properties.filter((property) => property.name === 'operation');

test('the names saved workflows store are all still there', () => {
	expect(description).toMatchObject({ name: 'outreachSequences', version: 1, usableAsTool: true });
	expect(credential.properties.map((p) => [p.name, p.required, p.typeOptions?.password])).toEqual([
		['apiKey', true, true],
		['baseUrl', true, undefined],
	]);
	expect([credential.name, description.credentials]).toEqual([
		'outreachSequencesApi',
		[{ name: 'outreachSequencesApi', required: true }],
	]);
	const names = `
		resource=contact resource=contactList resource=sequence resource=useCase
		operation=create operation=archive operation=get contactId contactListId useCaseId
		specifyBody=fields specifyBody=json jsonBody name additionalFields.description
		additionalFields.criteria additionalFields.timezone schedules.schedule.dayOffset
		schedules.schedule.hour schedules.schedule.minute schedules.schedule.delayInMinutes
		schedules.schedule.sequenceScripts toolDescription
		requestOptions.batching.batch.batchSize requestOptions.batching.batch.limit=automatic
		requestOptions.batching.batch.limit=fixed requestOptions.batching.batch.batchInterval
		requestOptions.allowUnauthorizedCerts requestOptions.rateLimitHandling.settings.enabled
		requestOptions.rateLimitHandling.settings.maxRetries
		requestOptions.rateLimitHandling.settings.maxWait
		requestOptions.skipDoneBefore.keySettings.key
		requestOptions.skipDoneBefore.keySettings.windowMinutes
		requestOptions.repeatRecentCreates requestOptions.timeout
		requestOptions.unconfirmedEarlierTry=fail requestOptions.unconfirmedEarlierTry=sendAgain
		requestOptions.unconfirmedEarlierTry=countAsDone
	`
		.trim()
		.split(/\s+/);
	expect(names.filter((name) => !stored.has(name))).toEqual([]);
});

// n8n saves no parameter left at its default: a saved workflow that never changed one runs whatever the default is.
test('the defaults saved workflows rely on', () => {
	expect(
		Object.fromEntries(selectors.map((s) => [s.displayOptions!.show!.resource![0], s.default])),
	).toMatchObject({
		sequence: 'create',
		contact: 'archive',
		contactList: 'archive',
		useCase: 'get',
	});
	expect(all.find(([at]) => at === 'resource')![1]).toMatchObject({ default: 'sequence' });
	expect(all.find(([at]) => at === 'specifyBody')![1]).toMatchObject({ default: 'fields' });
});

test('each registered operation is offered once, with its fields shown only for it and an action as n8n writes them', () => {
	const offered = selectors.flatMap((s) =>
		(s.options as INodePropertyOptions[]).map(
			(o) => `${s.displayOptions!.show!.resource}/${o.value}:${o.action}`,
		),
	);
	expect(offered.map((entry) => entry.split(':')[0]).sort()).toEqual(
		operations.map((o) => `${o.resource}/${o.operation}`).sort(),
	);
	// Airtable's "Get a record": verb, article, object, in sentence case.
	expect(offered.filter((entry) => !/:[A-Z][a-z]+ an? [a-z]+( [a-z]+)*$/.test(entry))).toEqual([]);
	for (const { resource, operation, properties } of operations)
		for (const property of properties)
			expect(property.displayOptions?.show).toMatchObject({
				resource: [resource],
				operation: [operation],
			});
});

test('every operation has a tool description of its own, only on the AI Agent tool variant', () => {
	for (const { properties } of operations) {
		const tool = properties.filter((property) => property.name === 'toolDescription');
		expect(tool).toHaveLength(1);
		expect(tool[0].displayOptions?.show?.['@tool']).toEqual([true]);
		expect(String(tool[0].default).length).toBeGreaterThan(150);
	}
});

test('every hint is one or two sentences, at most 200 characters, and names nothing inside the node', () => {
	const hints = [
		['node', description.description],
		...[...all, ...walk(credential.properties, 'credential.')].flatMap(([at, p]) =>
			[p.description, p.hint].filter(Boolean).map((text) => [at, text]),
		),
	] as Array<[string, string]>;
	const tool = operations.map(
		({ properties }) => properties.find((p) => p.name === 'toolDescription')!.default,
	);
	const inside =
		/\.(?:m?ts|js|json)\b|\b(?:loop|pacer|executor|dispatcher|declarative|routing|transport|buildRequest|normalizeBaseUrl|run\/|actions\/)\b/i;
	const sentences = (text: string) =>
		text.split(/[.!?](?:\s|$)/).filter((part) => part.trim()).length;
	expect(hints.length).toBeGreaterThan(40);
	expect(hints.filter(([, text]) => text.length > 200 || sentences(text) > 2)).toEqual([]);
	expect(
		[...hints.map(([, text]) => text), ...tool].filter((text) => inside.test(String(text))),
	).toEqual([]);
	expect(['See loop.ts', 'n8n routing'].every((text) => inside.test(text))).toBe(true);
	// Where the contract leaves values open, the group says so once, its fields not again.
	expect(
		hints.filter(([, text]) => /gives no (range|format)/.test(text)).map(([at]) => at),
	).toEqual(['additionalFields', 'schedules']);
});

test.each([
	[
		{ batchSize: 5, batchInterval: 100 },
		{ groupSize: 5, pauseMs: 100, fixed: false },
	],
	[
		{ batchSize: 256, limit: 'fixed' as const },
		{ groupSize: 256, pauseMs: 0, fixed: true },
	],
	[{ batchSize: 513 }, { groupSize: 512, pauseMs: 0, fixed: false }],
])('Batching %j sends as %j', (batch, expected) => {
	expect(batchingOf({ batching: { batch } })).toEqual(expected);
});

test('the package: its codex names the node, two icons, no runtime dependency', () => {
	const manifest = json('package.json');
	const codex = json('nodes/OutreachSequences/OutreachSequences.node.json');
	expect(codex.node).toBe(`${manifest.name}.${description.name}`);
	const icon = description.icon as { light: string; dark: string };
	const file = (reference: string) =>
		readFileSync(path.resolve(ROOT, 'dist/nodes/OutreachSequences', reference.slice(5)), 'utf8');
	expect(file(icon.light)).not.toBe(file(icon.dark));
	expect(manifest).toMatchObject({
		license: 'MIT',
		files: ['dist'],
		peerDependencies: { 'n8n-workflow': '*' },
	});
	expect([manifest.dependencies, manifest.overrides]).toEqual([undefined, undefined]);
	for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials])
		expect(existsSync(path.join(ROOT, entry))).toBe(true);
});

test('every example workflow uses an operation the node offers, and the sandbox credential', () => {
	const offered = operations.map(({ resource, operation }) => `${resource}:${operation}`);
	const used = readdirSync(path.join(ROOT, 'examples'))
		.filter((name) => name.endsWith('.workflow.json'))
		.flatMap(
			(name) =>
				json(`examples/${name}`).nodes as Array<{
					type: string;
					parameters: Record<string, string>;
					credentials: Record<string, { id: string }>;
				}>,
		)
		.filter((node) => node.type === `n8n-nodes-outreach-sequences.${description.name}`);
	expect(used.length).toBeGreaterThan(0);
	for (const node of used) {
		expect(offered).toContain(`${node.parameters.resource}:${node.parameters.operation}`);
		expect(node.credentials.outreachSequencesApi.id).toBe('outreachSandbox');
	}
});
