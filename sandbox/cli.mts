// Runs the sandbox on its own: `npm run sandbox -- --port 4010 --key my-key`
// (`--bulk-contacts N` also seeds contacts bulk-0 … bulk-<N-1>, and
// `--bulk-use-cases N` use cases bulk-0 … bulk-<N-1>;
// `--rate-limit 50` answers 429 beyond 50 requests per second, with
// `--burst N` (default: the rate), `--retry-after seconds|date|none`, and
// `--rate-limit-headers ietf|x` for standard rate-limit headers on every answer).
import { DEFAULT_API_KEY, startSandbox } from './server.mts';
import type { RateLimit } from './server.mts';
import { knownIdsLine } from './seed.mts';

function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

function rateLimitOption(): RateLimit | undefined {
	const rate = Number(option('rate-limit', process.env.SANDBOX_RATE_LIMIT ?? '0'));
	if (!(rate > 0)) return undefined;
	const retryAfter = option('retry-after', 'seconds');
	if (!['seconds', 'date', 'none'].includes(retryAfter))
		throw new Error('--retry-after takes seconds, date or none');
	const headers = option('rate-limit-headers', process.env.SANDBOX_RATE_LIMIT_HEADERS ?? 'none');
	if (!['ietf', 'x', 'none'].includes(headers))
		throw new Error('--rate-limit-headers takes ietf, x or none');
	return {
		rate,
		burst: Number(option('burst', String(rate))),
		retryAfter: retryAfter as RateLimit['retryAfter'],
		headers: headers as RateLimit['headers'],
	};
}

const sandbox = await startSandbox({
	port: Number(option('port', process.env.SANDBOX_PORT ?? '4010')),
	apiKey: option('key', process.env.SANDBOX_API_KEY ?? DEFAULT_API_KEY),
	bulkContacts: Number(option('bulk-contacts', '0')),
	bulkUseCases: Number(option('bulk-use-cases', '0')),
	rateLimit: rateLimitOption(),
});
console.log(
	JSON.stringify({
		url: sandbox.url,
		apiKey: sandbox.apiKey,
		rateLimit: rateLimitOption() ?? null,
		knownIds: knownIdsLine(
			Number(option('bulk-contacts', '0')),
			Number(option('bulk-use-cases', '0')),
		),
	}),
);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
