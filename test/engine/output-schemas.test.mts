// The output schemas the package ships: every answer the sandbox gives, as
// the node puts it out in n8n's engine, validates against its operation's
// (Ajv, strict); a schema that accepted anything would fail the last test.
// That n8n serves each shipped file: test/e2e/cli.e2e.mts.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { Ajv } from 'ajv';
import { parse } from 'yaml';

import { operations } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';
import { seedData } from '../../sandbox/seed.mts';
import { OPENAPI_DOCUMENT, routesOf } from '../../sandbox/routes.mts';
import { PACKAGE_DIR } from '../harness/engine.mts';
import { useEnvironment } from '../harness/setup.mts';
import { runFixture } from '../harness/workflows.mts';

const env = useEnvironment();
const seed = seedData();
const routes = routesOf(parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')));
const built = path.join(PACKAGE_DIR, 'dist', 'nodes', 'OutreachSequences');
const schemaOf = (resource: string, operation: string) =>
	JSON.parse(
		readFileSync(path.join(built, '__schema__', 'v1.0.0', resource, `${operation}.json`), 'utf8'),
	);
function validator(resource: string, operation: string) {
	// `version` is n8n's own marker; `nullable` Ajv knows.
	const ajv = new Ajv({ strict: true, allErrors: true, strictTypes: false });
	ajv.addKeyword('version');
	return ajv.compile(schemaOf(resource, operation));
}

test.each(
	operations.map((definition) => [`${definition.resource}/${definition.operation}`, definition]),
)(
	'%s: every answer of the sandbox validates, served as its operationId',
	async (_, { resource, operation, operationId, properties }) => {
		const route = routes.find((entry) => entry.operationId === operationId)!;
		const field = properties.find((property) => property.required)!.name;
		const records = (seed as unknown as Record<string, Array<{ id: string }>>)[route.collection];
		const allScripts = seed.scripts.map((script) => String(script.id)).join(', ');
		const parameters =
			route.kind === 'create'
				? {
						schedules: {
							schedule: [
								{
									dayOffset: 0,
									hour: 9,
									minute: 0,
									delayInMinutes: 0,
									sequenceScripts: allScripts,
								},
							],
						},
					}
				: { resource, operation, [field]: '={{ $json.id }}' };
		const run = await runFixture(
			env.engine,
			env.sandbox,
			route.kind === 'create' ? 'sequence-create-fields' : 'contact-archive',
			{
				items:
					route.kind === 'create'
						? [{ name: 'All kinds' }, { name: '' }]
						: records.map(({ id }) => ({ id })),
				parameters,
				onError: 'continueRegularOutput',
			},
		);
		const validate = validator(resource, operation);
		for (const item of run.all)
			expect([item.json.id, validate(item.json) ? [] : validate.errors]).toEqual([
				item.json.id,
				[],
			]);
		const served = (await env.sandbox.requests()).map((request) => request.operationId);
		expect([run.all.length, new Set(served)]).toEqual([served.length, new Set([operationId])]);
	},
);

test('the schemas reject what the contract rules out', () => {
	const list = validator('contactList', 'archive');
	expect(
		list({ name: null, description: null, status: 'archived', id: 'l', contactCount: null }),
	).toBe(true);
	expect(list({ name: null, description: null, status: 'gone' })).toBe(false);
	const sequence = validator('sequence', 'create');
	expect(sequence({ schedules: [{ scripts: [{ $type: 'BlasterScript' }] }] })).toBe(false);
	expect(sequence({ schedules: [{ scripts: [{ $type: 'BlasterScript', message: null }] }] })).toBe(
		true,
	);
});
