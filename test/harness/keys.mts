// Every API key the suites give the sandbox, in one place, so that the secret
// scan (test/secrets/scan.mts) knows what must never appear in any output.
export const TEST_API_KEYS = {
	engine: 'sandbox-test-key-7f3a9c2e51',
	cli: 'e2e-cli-key-5d1c0b9a',
	editor: 'e2e-editor-key-93b1d0c7',
	credentialTest: 'e2e-credential-test-key-5e1b8f36',
	queue: 'e2e-queue-key-4e8a21f0',
	rateLimit: 'e2e-rate-limit-key-6c2f8d13',
	schemaPreview: 'e2e-schema-preview-key-1a7d4b92',
	installPaths: 'e2e-install-paths-key-8b3e5c70',
	aiAgent: 'e2e-ai-agent-key-2d9f6a41',
	mcp: 'e2e-mcp-key-0b5e7c38',
	start: 'e2e-start-key-3f9a6d21',
	burst: 'e2e-burst-key-7a2c9e05',
	reRuns: 'e2e-re-runs-key-5c8d1e64',
	passingFaults: 'e2e-passing-faults-key-9e2b7a13',
	outcomePath: 'e2e-outcome-path-key-4b7e2d90',
} as const;
