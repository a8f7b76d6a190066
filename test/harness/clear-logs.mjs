// Jest's globalSetup: each run starts with an empty artifacts/engine, where
// n8n's log of the engine tests goes (test/harness/n8n-log.mts).
import { rmSync } from 'node:fs';
import path from 'node:path';

export default function clearLogs(globalConfig) {
	rmSync(path.join(globalConfig.rootDir, 'artifacts', 'engine'), { recursive: true, force: true });
}
