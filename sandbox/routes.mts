// Routing from the OpenAPI document: what each operation does follows from
// its method and path shape, so an operation added to the document is served
// without a list kept here. A shape no rule covers stops the sandbox, and
// `npm run lint` (check-openapi.mts), naming the operation.
import { fileURLToPath } from 'node:url';

export const OPENAPI_DOCUMENT = fileURLToPath(
	new URL('../openapi/outreach-sequences.openapi.yaml', import.meta.url),
);

/** What an operation of the document does to the store. */
export interface Route {
	operationId: string;
	kind: 'create' | 'get' | 'archive';
	/** The store's name for the collection the path names: /v1/contact_lists/… → contactLists. */
	collection: string;
	/** The path parameter that holds the record's id; create has none. */
	param?: string;
}

const RULES: Array<{ kind: Route['kind']; method: string; path: RegExp }> = [
	{ kind: 'create', method: 'post', path: /^\/v1\/(\w+)$/ },
	{ kind: 'get', method: 'get', path: /^\/v1\/(\w+)\/\{(\w+)\}$/ },
	{ kind: 'archive', method: 'post', path: /^\/v1\/(\w+)\/\{(\w+)\}\/archive$/ },
];

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const camelCase = (segment: string) =>
	segment.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());

function routeOf(method: string, path: string, operationId: string | undefined): Route {
	for (const rule of RULES) {
		const match = rule.method === method ? rule.path.exec(path) : null;
		if (match && operationId)
			return { operationId, kind: rule.kind, collection: camelCase(match[1]), param: match[2] };
	}
	throw new Error(
		`${method.toUpperCase()} ${path} (${operationId ?? 'no operationId'}): the sandbox has no rule for it. ` +
			'sandbox/routes.mts serves POST /v1/<collection> (create), GET /v1/<collection>/{id} (get) and POST /v1/<collection>/{id}/archive (archive), each with an operationId.',
	);
}

/** The route of every operation in the document; throws where no rule fits one. */
export function routesOf(document: { paths?: Record<string, Record<string, unknown>> }): Route[] {
	return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
		Object.entries(item)
			.filter(([method]) => METHODS.includes(method))
			.map(([method, operation]) =>
				routeOf(method, path, (operation as { operationId?: string }).operationId),
			),
	);
}
