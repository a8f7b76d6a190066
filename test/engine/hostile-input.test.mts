// Hostile input, as properties (fast-check): identifiers that users,
// spreadsheets and webhooks can hand the node. Each property runs a whole
// batch of generated items through one workflow run and checks every item and
// every request the sandbox received. JSON bodies and schedule numbers:
// hostile-input-values.test.mts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';

import type { RecordedRequest } from '../harness/sandbox.mts';
import { runFixture } from '../harness/workflows.mts';
import { startOver, useEnvironment } from '../harness/setup.mts';
import { brokenCharacter, RUNS } from './hostile-input-harness.mts';

const env = useEnvironment();

// ── identifiers ─────────────────────────────────────────────────────────────
const tricky = fc.constantFrom(
	'/',
	'..',
	'.',
	'../..',
	'../use_cases/uc-1',
	'%2F',
	'%',
	'%zz',
	'?',
	'#',
	'a?b=c#d',
	' ',
	'\t\n',
	'c-42/archive',
	'//127.0.0.2:9/steal',
	'http://127.0.0.2:9/steal',
	'@127.0.0.2',
	'\\\\127.0.0.2\\x',
	'\u0000',
	'\ud800',
	'😀',
	'e\u0301',
);
const identifier = fc.oneof(
	tricky,
	fc.string({ unit: 'binary', maxLength: 40 }),
	fc.string({ unit: 'grapheme', maxLength: 40 }),
	fc
		.array(fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 5 })), { maxLength: 8 })
		.map((parts) => parts.join('')),
	fc.integer(),
	fc.double({ noNaN: true, noDefaultInfinity: true }),
	fc.string({ unit: 'binary', minLength: 2000, maxLength: 12_000 }),
);

/**
 * What the package issue specifies for an identifier: trimmed text, numbers as
 * text; empty, "." and ".." refused; so is text a URL can't carry faithfully.
 */
function expectedIdentifier(raw: unknown): string | undefined {
	const text = typeof raw === 'number' ? String(raw) : String(raw).trim();
	if (text === '' || text === '.' || text === '..' || brokenCharacter(text)) return undefined;
	return text;
}

/** The one path segment between `prefix` and `suffix`, decoded; undefined if the path has another shape. */
function segmentOf(url: string, prefix: string, suffix: string): string | undefined {
	if (!url.startsWith(prefix) || !url.endsWith(suffix)) return undefined;
	const segment = url.slice(prefix.length, url.length - suffix.length);
	if (segment === '' || /[/?#]/.test(segment)) return undefined;
	return decodeURIComponent(segment);
}

const ROUTES = [
	{ fixture: 'contact-archive', method: 'POST', prefix: '/v1/contacts/', suffix: '/archive' },
	{
		fixture: 'contact-list-archive',
		method: 'POST',
		prefix: '/v1/contact_lists/',
		suffix: '/archive',
	},
	{ fixture: 'use-case-get', method: 'GET', prefix: '/v1/use_cases/', suffix: '' },
];

describe.each(ROUTES)(
	'$fixture: any identifier is exactly one encoded path segment under its route',
	(route) => {
		test('property', async () => {
			await fc.assert(
				fc.asyncProperty(fc.array(identifier, { minLength: 1, maxLength: 12 }), async (ids) => {
					await startOver(env);
					const run = await runFixture(env.engine, env.sandbox, route.fixture, {
						items: ids.map((id) => ({ id })),
						onError: 'continueRegularOutput',
					});
					const requests: RecordedRequest[] = await env.sandbox.requests();
					const expected = ids
						.map(expectedIdentifier)
						.filter((id): id is string => id !== undefined);

					expect(run.all).toHaveLength(ids.length);
					expect(run.all.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
					ids.forEach((raw, index) => {
						if (expectedIdentifier(raw) === undefined)
							expect(run.all[index].json.error).toEqual(expect.any(String));
					});
					expect(requests).toHaveLength(expected.length);
					for (const request of requests) {
						expect(request.method).toBe(route.method);
						expect(request.headers.host).toBe(new URL(env.sandbox.url).host);
					}
					const sent = requests.map((request) =>
						segmentOf(request.url, route.prefix, route.suffix),
					);
					expect(sent.sort()).toEqual(expected.sort());
				}),
				{ numRuns: RUNS },
			);
		});
	},
);

test('identifiers that look like hosts or URLs never reach another host', async () => {
	const received: string[] = [];
	const elsewhere = http.createServer((req, res) => {
		received.push(`${req.method} ${req.url}`);
		res.end('{}');
	});
	await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.2', resolve));
	const other = `127.0.0.2:${(elsewhere.address() as AddressInfo).port}`;
	try {
		const ids = [
			`//${other}/x`,
			`http://${other}/x`,
			`@${other}`,
			`\\\\${other}\\x`,
			`..%2F..%2F${other}`,
			`https:${other}`,
		];
		const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
			items: ids.map((id) => ({ id })),
			onError: 'continueRegularOutput',
		});
		expect(run.all).toHaveLength(ids.length);
		const requests = await env.sandbox.requests();
		expect(requests.map((request) => segmentOf(request.url, '/v1/use_cases/', '')).sort()).toEqual(
			[...ids].sort(),
		);
		expect(received).toEqual([]);
	} finally {
		elsewhere.close();
	}
});
