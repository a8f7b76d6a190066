// Everything the real n8n processes printed is kept under artifacts/e2e/logs,
// so a failure can be read afterwards and the secret scan can search it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { ARTIFACTS } from './n8n.mts';

export const LOGS = path.join(ARTIFACTS, 'logs');

export function recordLog(name: string, text: string): void {
	mkdirSync(LOGS, { recursive: true });
	writeFileSync(path.join(LOGS, `${name.replace(/[^\w.-]+/g, '_')}.log`), text);
}
