// The API as the document describes it: openapi-backend matches a request to
// an operation, checks the X-API-Key security scheme and validates the
// request; the operation's route (routes.mts) answers it from the store.
import type http from 'node:http';

import { OpenAPIBackend } from 'openapi-backend';
import type { Context } from 'openapi-backend';

import { OPENAPI_DOCUMENT, routesOf } from './routes.mts';
import type { Route } from './routes.mts';
import type { Json, JsonObject } from './seed.mts';
import { message, NOT_FOUND } from './store.mts';
import type { Answer, Store } from './store.mts';

function serve(store: Store, route: Route, c: Context): Answer {
	if (route.kind === 'create')
		return store.create(route.collection, (c.request.requestBody ?? {}) as JsonObject);
	const id = c.request.params[route.param!] as string;
	return route.kind === 'get'
		? store.get(route.collection, id)
		: store.archive(route.collection, id);
}

/** The document, served from the store. */
export class DocumentRoutes {
	private readonly api: OpenAPIBackend;
	private readonly store: Store;

	constructor(store: Store, apiKey: string) {
		this.store = store;
		this.api = new OpenAPIBackend({
			definition: OPENAPI_DOCUMENT,
			// openapi-backend checks documents against the OpenAPI 3.0 schema only;
			// sandbox/check-openapi.mts checks this 3.1 document (npm run lint).
			quick: true,
			strict: true,
			ajvOpts: { strict: false },
			handlers: {
				notFound: () => message(404, NOT_FOUND),
				methodNotAllowed: () => message(405, 'Method not allowed'),
				unauthorizedHandler: () => message(401, 'Invalid or missing API key'),
				validationFail: (c: Context) =>
					message(400, 'Request validation failed', {
						errors: (c.validation.errors ?? []) as unknown as Json,
					}),
			},
			securityHandlers: {
				ApiKey: (c: Context) => c.request.headers['x-api-key'] === apiKey,
			},
		});
	}

	async init(): Promise<void> {
		await this.api.init();
		for (const route of routesOf(this.api.definition as Parameters<typeof routesOf>[0])) {
			this.api.register(route.operationId, (c: Context) => serve(this.store, route, c));
		}
	}

	/** The answer to an API request; notes the operation it matched on `record`. */
	async answer(
		req: http.IncomingMessage,
		record: { method: string; url: string; body: string; operationId?: string },
	): Promise<Answer> {
		const operation = this.api.matchOperation({
			method: record.method,
			path: record.url,
			headers: {},
		});
		record.operationId = operation?.operationId;
		const takesBody = Boolean(operation?.requestBody);
		if (operation && !takesBody && record.body !== '') {
			return message(400, 'This operation takes no request body');
		}
		let body: unknown;
		if (takesBody) {
			if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
				return message(415, 'The body must be sent as Content-Type: application/json');
			}
			try {
				body = JSON.parse(record.body);
			} catch {
				return message(400, 'The body is not valid JSON');
			}
		}
		return (await this.api.handleRequest({
			method: record.method,
			path: record.url,
			headers: req.headers as Record<string, string | string[]>,
			body,
		})) as Answer;
	}
}
