// A forward proxy for plain-HTTP requests, as n8n's HTTP_PROXY sends them:
// it records each one (method, absolute URL, whether it carried the key) and
// passes it on. `hosts` maps host names that only the proxy knows to the
// address it connects to instead, as a proxy that is an instance's only way
// out resolves names its clients can't.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ForwardProxy {
	url: string;
	/** Each request it carried: `GET http://host:port/path key:yes`. */
	seen: string[];
	close(): void;
}

export async function startProxy(hosts: Record<string, string> = {}): Promise<ForwardProxy> {
	const seen: string[] = [];
	const server = http.createServer((req, res) => {
		seen.push(`${req.method} ${req.url} key:${req.headers['x-api-key'] ? 'yes' : 'no'}`);
		const target = new URL(req.url ?? '');
		const upstream = http.request(
			{
				host: hosts[target.hostname] ?? target.hostname,
				port: target.port,
				path: `${target.pathname}${target.search}`,
				method: req.method,
				headers: req.headers,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.writeHead(502).end());
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		seen,
		close: () => {
			server.closeAllConnections();
			server.close();
		},
	};
}

/** n8n's environment for a proxy that every request goes through: both spellings, as n8n reads either. */
export const behindProxy = (proxy: string): Record<string, string> => ({
	HTTP_PROXY: proxy,
	http_proxy: proxy,
	HTTPS_PROXY: proxy,
	https_proxy: proxy,
	NO_PROXY: '',
	no_proxy: '',
});
