// What a service's standard rate-limit headers say of its quota (run/pace/quota.ts).
import { quotaOf } from '../../nodes/OutreachSequences/run/pace/quota.ts';

const NOW = Date.parse('Mon, 23 Nov 2026 10:00:00 GMT');

test.each([
	[
		'the IETF draft, one policy',
		{ RateLimit: '"default";r=0;t=3' },
		{ remaining: 0, resetMs: 3000 },
	],
	[
		'the IETF draft, the policy with the fewest left',
		{ ratelimit: '"burst";r=40;t=1, "daily";r=2;t=3600' },
		{ remaining: 2, resetMs: 3_600_000 },
	],
	[
		'the older draft, one dictionary',
		{ RateLimit: 'limit=10, remaining=0, reset=5' },
		{ remaining: 0, resetMs: 5000 },
	],
	[
		'the older drafts, fields of their own',
		{ 'RateLimit-Remaining': '4', 'RateLimit-Reset': '2' },
		{ remaining: 4, resetMs: 2000 },
	],
	[
		'X-RateLimit with seconds to wait',
		{ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '7' },
		{ remaining: 0, resetMs: 7000 },
	],
	[
		'X-RateLimit with a Unix time in seconds',
		{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 30) },
		{ remaining: 0, resetMs: 30_000 },
	],
	[
		'X-RateLimit with a Unix time in milliseconds',
		{ 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': String(NOW + 1500) },
		{ remaining: 1, resetMs: 1500 },
	],
	[
		'a reset in the past',
		{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 - 5) },
		{ remaining: 0, resetMs: 0 },
	],
])('%s', (_name, headers, quota) => {
	expect(quotaOf(headers, NOW)).toEqual(quota);
});

test.each([
	['no rate-limit headers', { 'content-type': 'application/json' }],
	['a limit alone says nothing of what is left', { 'X-RateLimit-Limit': '100' }],
	['a policy alone', { 'RateLimit-Policy': '"default";q=100;w=60' }],
	['remaining without a reset', { 'X-RateLimit-Remaining': '0' }],
	['values that are not numbers', { RateLimit: '"default";r=soon;t=later' }],
])('%s: no quota, and the node paces as without headers', (_name, headers) => {
	expect(quotaOf(headers, NOW)).toBeUndefined();
});
