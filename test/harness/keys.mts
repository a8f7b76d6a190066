// Every API key the suites give the sandbox, in one place, so that the secret
// scan (test/secrets/scan.mts) knows what must never appear in any output.
export const TEST_API_KEYS = {
	engine: 'sandbox-test-key-7f3a9c2e51',
	cli: 'e2e-cli-key-5d1c0b9a',
	editor: 'e2e-editor-key-93b1d0c7',
	queue: 'e2e-queue-key-4e8a21f0',
	rateLimit: 'e2e-rate-limit-key-6c2f8d13',
	aiAgent: 'e2e-ai-agent-key-2d9f6a41',
	start: 'e2e-start-key-3f9a6d21',
	burst: 'e2e-burst-key-7a2c9e05',
	reRuns: 'e2e-re-runs-key-5c8d1e64',
	skipDoneBefore: 'e2e-skip-done-before-key-4f1c8a27',
	skipDoneBeforeQueue: 'e2e-skip-queue-key-6e3b2d98',
	crash: 'e2e-crash-key-1a9d5c73',
	removeDuplicates: 'e2e-remove-duplicates-key-2f8a5d37',
	egress: 'e2e-egress-key-4d7b1c68',
	memory: 'e2e-memory-key-6d3f9a17',
	memoryQueue: 'e2e-memory-queue-key-2b8c4e19',
} as const;
