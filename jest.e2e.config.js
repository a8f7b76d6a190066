/** @type {import('jest').Config} */
// `npm run test:e2e`: real n8n installs, a real browser and queue mode.
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	// Each suite starts n8n processes; installing n8n the first time takes minutes.
	testTimeout: 300_000,
	maxWorkers: 2,
	// n8n, redis and PostgreSQL are killed when a worker exits (harness/n8n.ts);
	// a handle left open by a failed setup must not hang the run.
	forceExit: true,
};
