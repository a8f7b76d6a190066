// The secret scan: no API key the suites used may appear in any output or
// artifact of the suites: jest's output, n8n's logs, run data, screenshots'
// folders, reports. Plain, base64 and URL-encoded forms are all searched.
// Usage: node test/secrets/scan.mts <file or folder> ...   (exit 1 on a find)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { TEST_API_KEYS } from '../harness/keys.mts';

function forms(key: string): string[] {
	return [
		key,
		Buffer.from(key).toString('base64'),
		encodeURIComponent(key),
		JSON.stringify(key).slice(1, -1),
	];
}

function filesUnder(target: string): string[] {
	if (!existsSync(target)) return [];
	if (statSync(target).isFile()) return [target];
	return readdirSync(target, { withFileTypes: true }).flatMap((entry) =>
		filesUnder(path.join(target, entry.name)),
	);
}

export function findKeys(text: string): string[] {
	return Object.entries(TEST_API_KEYS).flatMap(([name, key]) =>
		forms(key).some((form) => text.includes(form)) ? [name] : [],
	);
}

// The scan must be able to fail: a text holding a key is found.
if (
	findKeys(`x-api-key: ${TEST_API_KEYS.engine}`).length !== 1 ||
	findKeys(Buffer.from(TEST_API_KEYS.cli).toString('base64')).length !== 1
) {
	console.error('secret scan: the self-check failed');
	process.exit(2);
}

const targets = process.argv.slice(2);
const files = targets.flatMap(filesUnder);
const found = files.flatMap((file) =>
	findKeys(readFileSync(file).toString('latin1')).map((key) => `${file}: the ${key} key`),
);
const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
if (found.length > 0) {
	console.error(
		`secret scan: an API key appears in ${found.length} place(s):\n${found.join('\n')}`,
	);
	process.exit(1);
}
console.log(
	`secret scan: ${files.length} files (${Math.round(bytes / 1024)} KiB) in ${targets.join(', ')}: no API key`,
);
