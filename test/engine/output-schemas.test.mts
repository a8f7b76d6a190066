// Every answer the sandbox gives, as the node puts it out in n8n's engine,
// validates against the output schema the package ships for its operation
// (dist/nodes/OutreachSequences/__schema__/v1.0.0/<resource>/<operation>.json,
// written by npm run build), and the sandbox served it as the operationId
// whose response that schema is.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { Ajv } from 'ajv';
import type { IDataObject } from 'n8n-workflow';

import { operations } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';
import { seedData } from '../../sandbox/seed.mts';
import { PACKAGE_DIR } from '../harness/engine.mts';
import { useEnvironment } from '../harness/setup.mts';
import { runFixture } from '../harness/workflows.mts';

const env = useEnvironment();
const seed = seedData();

function validatorFor(resourceOperation: string) {
	const file = path.join(
		PACKAGE_DIR,
		'dist',
		'nodes',
		'OutreachSequences',
		'__schema__',
		'v1.0.0',
		`${resourceOperation}.json`,
	);
	const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
	// Strict: a keyword Ajv does not know fails here. `version` is n8n's own marker; `nullable` Ajv knows.
	const ajv = new Ajv({ strict: true, allErrors: true, strictTypes: false });
	ajv.addKeyword('version');
	return ajv.compile(schema);
}

async function expectAllValid(
	resourceOperation: string,
	fixture: string,
	items: IDataObject[],
	parameters = {},
) {
	const validate = validatorFor(resourceOperation);
	const earlier = (await env.sandbox.requests()).length;
	const run = await runFixture(env.engine, env.sandbox, fixture, {
		items,
		parameters,
		onError: 'continueRegularOutput',
	});
	expect(run.all).toHaveLength(items.length);
	for (const item of run.all) {
		expect(item.json.error).toBeUndefined();
		const valid = validate(item.json);
		expect([item.json.id, valid ? [] : validate.errors]).toEqual([item.json.id, []]);
	}
	const { operationId } = operations.find(
		(definition) => `${definition.resource}/${definition.operation}` === resourceOperation,
	)!;
	const served = (await env.sandbox.requests())
		.slice(earlier)
		.map((request) => request.operationId);
	expect([served.length, new Set(served)]).toEqual([items.length, new Set([operationId])]);
	return run.all;
}

test('every seeded contact, archived, matches contact/archive (nulls, unicode and fields the contract does not list included)', async () => {
	const outputs = await expectAllValid(
		'contact/archive',
		'contact-archive',
		seed.contacts.map((contact) => ({ id: contact.id })),
	);
	expect(outputs.some((item) => item.json.emails === null && item.json.phoneNumbers === null)).toBe(
		true,
	);
});

test('every seeded contact list, archived, matches contactList/archive', async () => {
	const outputs = await expectAllValid(
		'contactList/archive',
		'contact-list-archive',
		seed.contactLists.map((list) => ({ id: list.id })),
	);
	expect(outputs.map((item) => item.json.status)).toEqual(seed.contactLists.map(() => 'archived'));
});

test('every seeded use case matches useCase/get', async () => {
	const outputs = await expectAllValid(
		'useCase/get',
		'use-case-get',
		seed.useCases.map((useCase) => ({ id: useCase.id })),
	);
	expect(outputs.map((item) => item.json.actions === null)).toEqual([false, true]);
});

test('created sequences match sequence/create: every script kind, in its own field and in scripts[], and an empty body', async () => {
	const allScripts = seed.scripts.map((script) => String(script.id)).join(', ');
	const schedules = {
		schedule: [
			{ dayOffset: 0, hour: 9, minute: 0, delayInMinutes: 0, sequenceScripts: allScripts },
		],
	};
	const [full] = await expectAllValid(
		'sequence/create',
		'sequence-create-fields',
		[{ name: 'All kinds' }],
		{ schedules },
	);
	const kinds = ((full.json.schedules as IDataObject[])[0].scripts as IDataObject[]).map(
		(script) => script.$type,
	);
	expect([...kinds].sort()).toEqual(['BlasterScript', 'EmailScript', 'PhoneScript', 'TextScript']);

	const [empty] = await expectAllValid('sequence/create', 'sequence-create-json', [{}], {
		jsonBody: '{}',
	});
	expect(empty.json.name).toBeNull();
});

test('the schema rejects what the contract rules out: a validator that accepts everything would fail here', () => {
	const validate = validatorFor('contactList/archive');
	expect(
		validate({ name: null, description: null, status: 'archived', id: 'l', contactCount: null }),
	).toBe(true);
	expect(validate({ name: null, description: null, status: 'gone' })).toBe(false);
	expect(validate({ name: null, status: 'active' })).toBe(false);
	const sequence = validatorFor('sequence/create');
	expect(sequence({ schedules: [{ scripts: [{ $type: 'BlasterScript' }] }] })).toBe(false);
	expect(sequence({ schedules: [{ scripts: [{ $type: 'BlasterScript', message: null }] }] })).toBe(
		true,
	);
});
