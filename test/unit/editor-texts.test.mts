// What the editor shows an ops person: hints that say what a field is and what
// to enter, in a sentence or two, with nothing about how the node works inside.
// Options that change nothing by being added: editor-options.test.mts.
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { OutreachSequencesApi } from '../../credentials/OutreachSequencesApi.credentials.ts';
import { OutreachSequences } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';

const { description } = new OutreachSequences();
const credential = new OutreachSequencesApi();

/** Every text the editor shows beside a field or an option, with where it is. */
function hints(
	properties: INodeProperties[],
	prefix: string,
): Array<{ where: string; text: string }> {
	return properties.flatMap((property) => {
		const where = `${prefix}${property.name}`;
		const own = [property.description, property.hint]
			.filter((text): text is string => typeof text === 'string')
			.map((text) => ({ where, text }));
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option)
				return hints((option as INodePropertyCollection).values, `${where}.${option.name}.`);
			if ('type' in option) return hints([option as INodeProperties], `${where}.`);
			const choice = option as INodePropertyOptions;
			return choice.description
				? [{ where: `${where}=${String(choice.value)}`, text: choice.description }]
				: [];
		});
		return [...own, ...nested];
	});
}

const allHints = [
	{ where: 'node', text: description.description },
	...hints(description.properties, 'node.'),
	...hints(credential.properties, 'credential.'),
];

/**
 * Tool Description is the one long text: its default is what the AI Agent
 * tells its model, not a hint for a person. No hint here is a list, so no other
 * exception is made.
 */
const TOOL_DESCRIPTIONS = description.properties
	.filter((property) => property.name === 'toolDescription')
	.map((property) => String(property.default));

/** Words that name how the node works inside: its files, modules and modes. */
const INSIDE =
	/\.(?:m?ts|js|json)\b|\b(?:loop|pacer|executor|dispatcher|declarative|routing|transport|servicePace|runReport|failedItem|itemError|identifierOperation|buildRequest|normalizeBaseUrl|run\/|describe\/|resources\/)\b/i;

describe('hints for ops people', () => {
	test('there are hints to check, for the node, its fields and options, and the credential', () => {
		expect(allHints.length).toBeGreaterThan(40);
		expect(allHints.some(({ where }) => where.startsWith('credential.'))).toBe(true);
		expect(TOOL_DESCRIPTIONS).toHaveLength(4);
	});

	test('every hint is at most 200 characters', () => {
		expect(allHints.filter(({ text }) => text.length > 200)).toEqual([]);
	});

	test('every hint is one or two sentences', () => {
		const sentences = (text: string) =>
			text.split(/[.!?](?:\s|$)/).filter((part) => part.trim() !== '').length;
		expect(allHints.filter(({ text }) => sentences(text) > 2)).toEqual([]);
	});

	test('no hint, and no tool description, names a file, a module or a mode of the node', () => {
		const texts = [
			...allHints,
			...TOOL_DESCRIPTIONS.map((text) => ({ where: 'toolDescription', text })),
		];
		expect(texts.filter(({ text }) => INSIDE.test(text))).toEqual([]);
	});

	test('the check above catches what it is for', () => {
		for (const text of [
			'See loop.ts',
			'The pacer slows down',
			'unlike the declarative engine',
			'n8n routing',
		]) {
			expect(INSIDE.test(text)).toBe(true);
		}
		expect(
			INSIDE.test('How long to wait for each answer before the item fails, in milliseconds'),
		).toBe(false);
	});

	test('where the contract leaves values open, the group says so once; each field says what it takes, with no example of its own', () => {
		const hintOf = (name: string) => allHints.find(({ where }) => where.endsWith(`.${name}`))!.text;
		const open = /gives no (range|format)/;
		expect(hintOf('additionalFields')).toMatch(/gives no format for Criteria or Timezone/);
		expect(hintOf('schedules')).toMatch(/gives no range or unit for Day Offset, Hour and Minute/);
		for (const name of ['criteria', 'timezone', 'sequenceScripts']) {
			expect(hintOf(name)).not.toMatch(open);
			expect(hintOf(name)).toMatch(/\btext\b/);
			expect(hintOf(name)).not.toMatch(/e\.g\.|for example|such as/i);
		}
		for (const name of ['dayOffset', 'hour', 'minute', 'delayInMinutes']) {
			expect(hintOf(name)).not.toMatch(open);
			expect(hintOf(name)).toMatch(/a whole number$/);
		}
		expect(hintOf('timezone')).not.toMatch(/[A-Z][a-z]+\/[A-Z]/);
		// Said once: no field of either group repeats what its group says.
		expect(allHints.filter(({ text }) => open.test(text)).map(({ where }) => where)).toEqual([
			'node.additionalFields',
			'node.schedules',
		]);
	});
});

describe('the JSON body template', () => {
	const jsonBody = description.properties.find((property) => property.name === 'jsonBody')!;

	test('shows one schedule entry with the keys a create request takes, at neutral values', () => {
		const template = JSON.parse(String(jsonBody.default)) as {
			schedules: Array<Record<string, unknown>>;
		};
		expect(template.schedules).toHaveLength(1);
		expect(Object.keys(template.schedules[0])).toEqual([
			'dayOffset',
			'hour',
			'minute',
			'delayInMinutes',
			'sequenceScripts',
		]);
		expect(Object.values(template.schedules[0])).toEqual([0, 0, 0, 0, []]);
	});

	test("its hint says that a response's keys are not request keys", () => {
		expect(jsonBody.description).toMatch(/scripts or phoneScript, are not request keys/);
	});
});
