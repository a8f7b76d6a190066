// The output schema of each operation, made as the build makes it from the
// OpenAPI document: shared by output-schemas.test.mts and
// output-schemas-contract.test.mts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from 'yaml';

import { outputSchema } from '../../scripts/output-schemas.mts';
import type { Schema } from '../../scripts/output-schemas.mts';
import { operations } from '../../nodes/OutreachSequences/OutreachSequences.node.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export const root = path.resolve(here, '..', '..');
export const document = parse(
	readFileSync(path.join(root, 'openapi', 'outreach-sequences.openapi.yaml'), 'utf8'),
);
export const schemas: Record<string, Schema> = Object.fromEntries(
	operations.map((definition) => [
		`${definition.resource}/${definition.operation}`,
		outputSchema(document, definition.operationId),
	]),
);
