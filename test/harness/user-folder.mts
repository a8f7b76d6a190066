// n8n-core reads its user folder when it is first loaded; every test file
// gets a throwaway one, set before any module of the file is loaded (jest's
// setupFiles), so that no test touches ~/.n8n.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-user-'));
