// Checks that the contract's document is valid OpenAPI 3.1 (openapi-backend,
// which serves it, only knows the 3.0 schema). Run by `npm run lint`.
import { Validator } from '@seriousme/openapi-schema-validator';

import { OPENAPI_DOCUMENT } from './server.mts';

const validator = new Validator();
const result = await validator.validate(OPENAPI_DOCUMENT);
if (!result.valid) {
	console.error(`${OPENAPI_DOCUMENT} is not valid OpenAPI ${validator.version}:`, JSON.stringify(result.errors, null, 2));
	process.exit(1);
}
console.log(`${OPENAPI_DOCUMENT}: valid OpenAPI ${validator.version}`);
