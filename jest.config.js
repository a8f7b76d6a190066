/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	// Every test file starts n8n's engine and its isolated-vm expression sandbox.
	testTimeout: 60_000,
	maxWorkers: 2,
};
