// MCP clients of n8n's MCP Server Trigger, from the official MCP TypeScript SDK:
// Streamable HTTP or SSE with a Bearer token or none, and stdio through mcp-remote.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { ROOT } from './n8n.mts';

export type Transport = 'Streamable HTTP' | 'SSE';
export const TRANSPORTS: Transport[] = ['Streamable HTTP', 'SSE'];

function transportFor(endpoint: URL, kind: Transport, token: string | undefined) {
	const requestInit =
		token === undefined ? undefined : { headers: { Authorization: `Bearer ${token}` } };
	return kind === 'SSE'
		? new SSEClientTransport(endpoint, { requestInit })
		: new StreamableHTTPClientTransport(endpoint, { requestInit });
}

/** A client connected to `endpoint` over `kind`, sending `token` as its Bearer token, or none. */
export async function connectMcp(endpoint: URL, kind: Transport, token?: string): Promise<Client> {
	const client = new Client({ name: 'outreach-e2e', version: '1.0.0' });
	await client.connect(transportFor(endpoint, kind, token));
	return client;
}

/**
 * The README's configuration for a client that only speaks stdio: `npx
 * mcp-remote <URL> --header Authorization:${AUTH_HEADER}`, with the token in
 * the AUTH_HEADER environment variable, which mcp-remote expands.
 */
export function mcpRemoteTransport(endpoint: URL, token: string): StdioClientTransport {
	return new StdioClientTransport({
		command: process.execPath,
		args: [
			path.join(ROOT, 'node_modules', 'mcp-remote', 'dist', 'proxy.js'),
			endpoint.href,
			'--header',
			'Authorization:${AUTH_HEADER}',
		],
		env: {
			PATH: process.env.PATH ?? '',
			HOME: process.env.HOME ?? tmpdir(),
			AUTH_HEADER: `Bearer ${token}`,
			MCP_REMOTE_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'outreach-e2e-mcp-remote-')),
		},
		stderr: 'pipe',
	});
}

/** Get_Use_Case for `id` over Streamable HTTP with the Bearer `token`: the one text of its result, which must not be an error. */
export async function useCaseOverMcp(endpoint: URL, token: string, id: string): Promise<string> {
	const client = await connectMcp(endpoint, 'Streamable HTTP', token);
	try {
		const result = (await client.callTool({
			name: 'Get_Use_Case',
			arguments: { useCaseId: id },
		})) as { isError?: boolean; content: Array<{ text?: string }> };
		expect(result.isError).toBeFalsy();
		return result.content[0]?.text ?? '';
	} finally {
		await client.close();
	}
}
