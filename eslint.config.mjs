import { globalIgnores } from 'eslint/config';
import { config } from '@n8n/node-cli/eslint';

// n8n's own eslint config for community nodes, exactly as @n8n/node-cli ships
// it (`n8n-node lint` and `npm run lint` both use it): its rule sets for
// package.json, nodes/ and credentials/, and for every other .ts file.
// What is not shipped in the package is left out: the test harness, the
// sandbox (the service's stand-in), the build and benchmark scripts. They run
// only here, and the community-node rules are about code that runs inside n8n
// (no `process`, no timers, no console), which a test harness needs.
export default [globalIgnores(['test/', 'sandbox/', 'scripts/', 'bench/', 'examples/', 'docs/', 'openapi/', 'artifacts/', '.cache/', '.n8n-local/']), ...config];
