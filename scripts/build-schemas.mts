// `npm run build` (after tsc): writes the output schema of each operation the
// built node lists, beside the node file in dist/, from the contract's OpenAPI
// document. See output-schemas.mts for the form and why.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { parse } from 'yaml';

import type { OperationDefinition } from '../nodes/OutreachSequences/helpers/interfaces.ts';
import { outputSchema } from './output-schemas.mts';

const root = path.resolve(import.meta.dirname, '..');
const document = parse(
	readFileSync(path.join(root, 'openapi', 'outreach-sequences.openapi.yaml'), 'utf8'),
);
const built = path.join(root, 'dist', 'nodes', 'OutreachSequences', 'OutreachSequences.node.js');
const { OutreachSequences, operations } = await import(built);
const { description } = new OutreachSequences();
// The node's versions as n8n pads them: 1 → v1.0.0.
const versionDir = (version: number) =>
	`v${String(version).split('.').concat(['0', '0']).slice(0, 3).join('.')}`;
const versions: number[] = [description.version].flat();
const folder = path.join(root, 'dist', 'nodes', 'OutreachSequences', '__schema__');
for (const version of versions) {
	for (const { resource, operation, operationId } of operations as OperationDefinition[]) {
		const file = path.join(folder, versionDir(version), resource, `${operation}.json`);
		mkdirSync(path.dirname(file), { recursive: true });
		writeFileSync(file, `${JSON.stringify(outputSchema(document, operationId), null, '\t')}\n`);
	}
}
