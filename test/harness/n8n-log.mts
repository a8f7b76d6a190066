// n8n's log goes to artifacts/engine/n8n.log, not the console. The engine
// tests cause failures on purpose and n8n logs each one (its error reporter,
// through the logger n8n-core builds on first use): on the console, they
// would bury what jest says. This runs before any module of a test file is
// loaded (jest's setupFiles), as n8n reads its log settings once. To follow
// it as the tests run: `tail -f artifacts/engine/n8n.log`.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from '../../scripts/n8n/versions.mts';

/** n8n's log for every test file of a run; test/harness/clear-logs.mjs empties it when the run starts. */
export const ENGINE_LOG = path.join(ROOT, 'artifacts', 'engine', 'n8n.log');

mkdirSync(path.dirname(ENGINE_LOG), { recursive: true });
process.env.N8N_LOG_OUTPUT = 'file';
process.env.N8N_LOG_FILE_LOCATION = ENGINE_LOG;
// At n8n's default level, info: at debug, n8n logs each expression it
// evaluates, and the 10,000-item runs slow down.
process.env.N8N_LOG_LEVEL = 'info';
