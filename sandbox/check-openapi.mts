// Checks that the contract's document is valid OpenAPI 3.1 (openapi-backend,
// which serves it, only knows the 3.0 schema), and that the sandbox has a
// rule for each of its operations. Run by `npm run lint`.
import { readFileSync } from 'node:fs';

import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';

import { OPENAPI_DOCUMENT, routesOf } from './routes.mts';

const validator = new Validator();
const result = await validator.validate(OPENAPI_DOCUMENT);
if (!result.valid) {
	console.error(
		`${OPENAPI_DOCUMENT} is not valid OpenAPI ${validator.version}:`,
		JSON.stringify(result.errors, null, 2),
	);
	process.exit(1);
}
const routes = routesOf(parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')));
console.log(
	`${OPENAPI_DOCUMENT}: valid OpenAPI ${validator.version}; the sandbox serves ${routes.map((route) => `${route.operationId} (${route.kind})`).join(', ')}`,
);
