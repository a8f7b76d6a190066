// `npm run build` (after tsc): writes the output schemas that n8n's schema
// preview reads into dist/, beside the built node file, from the contract's
// OpenAPI document. See output-schemas.mts for the form and why.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { parse } from 'yaml';

import { nodeOperations, OUTPUT_OF, outputSchema } from './output-schemas.mts';

const root = path.resolve(import.meta.dirname, '..');
const document = parse(readFileSync(path.join(root, 'openapi', 'outreach-sequences.openapi.yaml'), 'utf8'));
const built = path.join(root, 'dist', 'nodes', 'OutreachSequences', 'OutreachSequences.node.js');
const { OutreachSequences } = await import(built);
const { description } = new OutreachSequences();
// The node's versions as n8n pads them: 1 → v1.0.0.
const versionDir = (version: number) => `v${String(version).split('.').concat(['0', '0']).slice(0, 3).join('.')}`;
const versions: number[] = [description.version].flat();
const missing = nodeOperations(description.properties).filter((name) => !(name in OUTPUT_OF));
if (missing.length) throw new Error(`No output schema is declared for ${missing.join(', ')} (scripts/output-schemas.mts, OUTPUT_OF)`);
const folder = path.join(root, 'dist', 'nodes', 'OutreachSequences', '__schema__');
for (const version of versions) {
	for (const resourceOperation of Object.keys(OUTPUT_OF)) {
		const file = path.join(folder, versionDir(version), `${resourceOperation}.json`);
		mkdirSync(path.dirname(file), { recursive: true });
		writeFileSync(file, `${JSON.stringify(outputSchema(document, resourceOperation), null, '\t')}\n`);
	}
}
