/** @type {import('jest').Config} */
// `npm run test:e2e`: real n8n installs, a real browser and queue mode.
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	// The suites CI runs (.ci/run), by name: a suite left out of this list does not run.
	testMatch: [
		'ai-agent',
		'cli',
		'crash',
		'editor',
		'egress',
		'memory',
		'n8n-signals',
		'newcomer',
		'queue',
	].map((suite) => `<rootDir>/test/e2e/${suite}.e2e.mts`),
	moduleFileExtensions: ['mts', 'ts', 'js', 'mjs', 'cjs', 'json'],
	extensionsToTreatAsEsm: ['.mts'],
	// n8n-workflow's "import" build is not loadable as ES modules outside a bundler;
	// the tests, n8n-core and the node share its CommonJS build, as in n8n.
	moduleNameMapper: { '^n8n-workflow$': '<rootDir>/node_modules/n8n-workflow/dist/cjs/index.js' },
	transform: { '^.+\\.m?ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', useESM: true }] },
	// Each suite starts n8n processes; installing n8n the first time takes minutes.
	testTimeout: 300_000,
	maxWorkers: 2,
	// n8n, redis and PostgreSQL are killed when a worker exits (harness/n8n.mts);
	// a handle left open by a failed setup must not hang the run.
	forceExit: true,
};
