// A scripted stand-in for an OpenAI-compatible chat-completions server (nothing
// leaves the machine): it calls the tool n8n offered, then answers; it records what n8n sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
	messages: Array<{ role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown }>;
	tools?: Array<{
		type: string;
		function: {
			name: string;
			description: string;
			parameters: { properties?: Record<string, unknown>; required?: string[] };
		};
	}>;
	stream?: boolean;
}

/** The stand-in model. `argumentsFor` gives the tool call's arguments from the parameter schema n8n sent. */
export async function startModel(argumentsFor: () => Record<string, unknown>) {
	const requests: ChatRequest[] = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			const request = JSON.parse(body || '{}') as ChatRequest;
			requests.push(request);
			const toolResult = request.messages.find((message) => message.role === 'tool');
			const tool = request.tools?.[0];
			const message =
				toolResult || !tool
					? {
							role: 'assistant',
							content: `Done. The tool said: ${String(toolResult?.content ?? '')}`,
						}
					: {
							role: 'assistant',
							content: null,
							tool_calls: [
								{
									id: 'call_1',
									type: 'function',
									function: { name: tool.function.name, arguments: JSON.stringify(argumentsFor()) },
								},
							],
						};
			res.setHeader('content-type', 'application/json');
			res.end(
				JSON.stringify({
					id: `chatcmpl-${requests.length}`,
					object: 'chat.completion',
					created: 1_700_000_000,
					model: 'stand-in',
					choices: [
						{ index: 0, message, finish_reason: message.content === null ? 'tool_calls' : 'stop' },
					],
					usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
				}),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
		requests,
		close: () => server.close(),
	};
}
