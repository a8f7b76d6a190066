// Runs the sandbox on its own: `npm run sandbox -- --port 4010 --key my-key`
// (`--bulk-contacts N` also seeds contacts bulk-0 … bulk-<N-1>).
import { DEFAULT_API_KEY, startSandbox } from './server.ts';

function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

const sandbox = await startSandbox({
	port: Number(option('port', process.env.SANDBOX_PORT ?? '4010')),
	apiKey: option('key', process.env.SANDBOX_API_KEY ?? DEFAULT_API_KEY),
	bulkContacts: Number(option('bulk-contacts', '0')),
});
console.log(JSON.stringify({ url: sandbox.url, apiKey: sandbox.apiKey }));
const stop = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
