/** @type {import('jest').Config} */
// The tests are ES modules (.mts): n8n's node lint rules cover every .ts file,
// and the tests, like the sandbox and the scripts, are not shipped.
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.mts'],
	moduleFileExtensions: ['mts', 'ts', 'js', 'mjs', 'cjs', 'json'],
	extensionsToTreatAsEsm: ['.mts'],
	// n8n-workflow's "import" build is not loadable as ES modules outside a bundler;
	// the tests, n8n-core and the node share its CommonJS build, as in n8n.
	moduleNameMapper: { '^n8n-workflow$': '<rootDir>/node_modules/n8n-workflow/dist/cjs/index.js' },
	transform: { '^.+\\.m?ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', useESM: true }] },
	setupFiles: ['<rootDir>/test/harness/user-folder.mts', '<rootDir>/test/harness/n8n-log.mts'],
	globalSetup: '<rootDir>/test/harness/clear-logs.mjs',
	// Every test file starts n8n's engine and its isolated-vm expression sandbox.
	testTimeout: 60_000,
	maxWorkers: 2,
	// Node never frees a test file's modules once it ran under --experimental-vm-modules
	// (nodejs/node#63186, jestjs/jest#14605): an engine file's copy of n8n-core stays, about
	// 45 MB, so a worker that ran half the files held 1 to 1.5 GB, took 0.25 to 0.9 s to exit,
	// and was killed past jest's 500 ms ("A worker process has failed to exit gracefully").
	// A worker past this heap after a file is replaced before the next one.
	workerIdleMemoryLimit: '400MB',
};
