// Runs workflows through n8n's own engine (n8n-core WorkflowExecute) with this
// package loaded the way n8n loads a community package (PackageDirectoryLoader
// over the package folder, so the built dist/ and package.json "n8n" entries).
// What n8n's CLI would supply around the engine (credential storage, the
// credentials helper, lifecycle hooks) is supplied here, and nothing more.
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { ExecutionLifecycleHooks, PackageDirectoryLoader, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeData,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IConnections,
	IDataObject,
	ExecutionError,
} from 'n8n-workflow';
import {
	Expression,
	ICredentialsHelper,
	LoggerProxy,
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../nodes/OutreachSequences/describe/names.ts';
import { NODE_TYPE, ROOT } from '../../scripts/n8n/versions.mts';
import { ENGINE_LOG } from './n8n-log.mts';
import { processedRows } from './processed-store.mts';

export { CREDENTIAL_TYPE, NODE_TYPE };
/** The package folder, which n8n-core loads as it loads a community package. */
export const PACKAGE_DIR = ROOT;

/** Test-only node types: a source of items, and a reader of expressions. */
class ItemsNode implements INodeType {
	description = {
		displayName: 'Items',
		name: 'items',
		group: ['input'],
		version: 1,
		description: 'Emits the items given as JSON',
		defaults: { name: 'Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Items', name: 'items', type: 'json', default: '[]' },
		] as INodeProperties[],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json) => ({ json }))];
	}
}

class ReadNode implements INodeType {
	description = {
		displayName: 'Read',
		name: 'read',
		group: ['transform'],
		version: 1,
		description: 'Evaluates an expression for each item, as a Set node would',
		defaults: { name: 'Read' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Value', name: 'value', type: 'string', default: '' },
		] as INodeProperties[],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, index) => ({
				json: { read: this.getNodeParameter('value', index) as IDataObject },
				pairedItem: { item: index },
			})),
		];
	}
}

export const TEST_NODE_TYPES = { items: 'test.items', read: 'test.read' } as const;

class NodeTypes implements INodeTypes {
	private readonly types: INodeTypeData;

	constructor(types: INodeTypeData) {
		this.types = types;
	}

	getByName(type: string): INodeType | IVersionedNodeType {
		const found = this.types[type];
		if (!found) throw new Error(`Unknown node type ${type}`);
		return found.type;
	}

	getByNameAndVersion(type: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	}

	getKnownTypes() {
		return {};
	}
}

/** Stored credentials by id, and the generic `authenticate` block applied as n8n's CLI does. */
class CredentialsHelper extends ICredentialsHelper {
	private readonly types: Record<string, ICredentialType>;
	readonly store: Map<string, ICredentialDataDecryptedObject>;

	constructor(
		types: Record<string, ICredentialType>,
		store: Map<string, ICredentialDataDecryptedObject>,
	) {
		super();
		this.types = types;
		this.store = store;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const type = this.types[typeName];
		const authenticate = type?.authenticate;
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const resolve = (value: unknown) =>
			workflow.expression.getSimpleParameterValue(
				node,
				value as string,
				'internal',
				{ $credentials: credentials },
				undefined,
				value as string,
			);
		for (const [target, values] of Object.entries(authenticate.properties) as Array<
			[string, IDataObject]
		>) {
			const options = requestOptions as unknown as Record<string, IDataObject>;
			options[target] ??= {};
			for (const [key, value] of Object.entries(values)) {
				options[target][String(resolve(key))] = resolve(value) as string;
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by the engine');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store.get(nodeCredentials.id ?? '');
		if (!data) throw new Error(`No credential with id ${nodeCredentials.id}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}
}

export interface WorkflowFixture {
	name?: string;
	nodes: INode[];
	connections: IConnections;
}

export interface RunResult {
	run: IRun;
	/** The items of each output of a node's first run. */
	output(nodeName: string): INodeExecutionData[][];
	error?: ExecutionError;
	/** The error a node stopped with, if any. */
	nodeError(nodeName: string): ExecutionError | undefined;
}

export interface Engine {
	run(
		workflow: WorkflowFixture,
		credentials: Record<string, ICredentialDataDecryptedObject>,
	): Promise<RunResult>;
	/**
	 * Executions › Retry of a failed run, as n8n's ExecutionService.retry does
	 * it: the failed run's saved data (through JSON, as the database keeps
	 * it), its error removed and the failed node's last run popped, then run
	 * on in mode 'retry'. `workflow` is the workflow to run: the failed run's,
	 * or the one saved since (loadWorkflow).
	 */
	retry(
		failed: IRun,
		workflow: WorkflowFixture,
		credentials: Record<string, ICredentialDataDecryptedObject>,
	): Promise<RunResult>;
	nodeType: INodeType;
	credentialType: ICredentialType;
}

function makeAdditionalData(
	credentialsHelper: ICredentialsHelper,
	workflowData: IWorkflowBase,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		hooks: new ExecutionLifecycleHooks('manual', 'test-execution', workflowData),
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used in these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Code nodes are not used in these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

let expressionEngineReady: Promise<void> | undefined;

/** n8n 2.x evaluates expressions in an isolated-vm sandbox by default; so do the tests. */
function startExpressionEngine(): Promise<void> {
	expressionEngineReady ??= Expression.initExpressionEngine({
		engine: 'vm',
		bridgeTimeout: 5000,
		bridgeMemoryLimit: 128,
		poolSize: 1,
		maxCodeCacheSize: 1024,
	});
	return expressionEngineReady;
}

export async function stopExpressionEngine(): Promise<void> {
	if (expressionEngineReady) {
		await expressionEngineReady;
		await Expression.disposeExpressionEngine();
		expressionEngineReady = undefined;
	}
}

/**
 * The engine's log lines before n8n-core builds its logger, at debug level,
 * into n8n's log (test/harness/n8n-log.mts), which the secret scan reads.
 * Once built, n8n's logger takes LoggerProxy over and writes there itself.
 */
function captureEngineLog(): void {
	mkdirSync(path.dirname(ENGINE_LOG), { recursive: true });
	const write = (level: string) => (message: string, metadata?: object) =>
		appendFileSync(ENGINE_LOG, `${JSON.stringify({ level, message, ...metadata })}\n`);
	LoggerProxy.init({
		error: write('error'),
		warn: write('warn'),
		info: write('info'),
		debug: write('debug'),
	});
}

/** `packageDir`: another build of the package, such as a temporary copy's. */
export async function createEngine(packageDir = PACKAGE_DIR): Promise<Engine> {
	captureEngineLog();
	await startExpressionEngine();
	await processedRows();
	const loader = new PackageDirectoryLoader(packageDir);
	await loader.loadAll();
	const types: INodeTypeData = {};
	for (const [name, data] of Object.entries(loader.nodeTypes))
		types[`${loader.packageName}.${name}`] = data;
	types[TEST_NODE_TYPES.items] = { type: new ItemsNode(), sourcePath: '' };
	types[TEST_NODE_TYPES.read] = { type: new ReadNode(), sourcePath: '' };
	const credentialTypes: Record<string, ICredentialType> = {};
	for (const [name, data] of Object.entries(loader.credentialTypes))
		credentialTypes[name] = data.type;
	const nodeTypes = new NodeTypes(types);

	/** The workflow and what n8n's CLI supplies around the engine, for one run of `fixture`. */
	function prepare(
		fixture: WorkflowFixture,
		credentials: Record<string, ICredentialDataDecryptedObject>,
	) {
		const store = new Map(Object.entries(credentials));
		const workflowData: IWorkflowBase = {
			id: 'test-workflow',
			name: fixture.name ?? 'test',
			active: false,
			isArchived: false,
			nodes: fixture.nodes,
			connections: fixture.connections,
			settings: { executionOrder: 'v1' },
			createdAt: new Date(),
			updatedAt: new Date(),
			activeVersionId: null,
		} as IWorkflowBase;
		const workflow = new Workflow({
			id: workflowData.id,
			name: workflowData.name,
			nodes: workflowData.nodes,
			connections: workflowData.connections,
			active: false,
			nodeTypes,
			settings: workflowData.settings,
		});
		const additionalData = makeAdditionalData(
			new CredentialsHelper(credentialTypes, store),
			workflowData,
		);
		return { workflow, additionalData };
	}

	function resultOf(run: IRun): RunResult {
		const runData = run.data.resultData.runData;
		return {
			run,
			error: run.data.resultData.error,
			output: (nodeName) =>
				(runData[nodeName]?.[0]?.data?.main ?? []).map(
					(items) => items ?? [],
				) as INodeExecutionData[][],
			nodeError: (nodeName) => runData[nodeName]?.[0]?.error,
		};
	}

	return {
		nodeType: nodeTypes.getByNameAndVersion(NODE_TYPE),
		credentialType: credentialTypes[CREDENTIAL_TYPE],
		async run(fixture, credentials) {
			const { workflow, additionalData } = prepare(fixture, credentials);
			const startNode =
				fixture.nodes.find((node) => node.type === TEST_NODE_TYPES.items) ?? fixture.nodes[0];
			return resultOf(
				await new WorkflowExecute(additionalData, 'manual').run({ workflow, startNode }),
			);
		},

		async retry(failed, fixture, credentials) {
			const { workflow, additionalData } = prepare(fixture, credentials);
			const data = JSON.parse(JSON.stringify(failed.data)) as IRun['data'];
			const { lastNodeExecuted } = data.resultData;
			if (lastNodeExecuted) {
				delete data.resultData.error;
				const runs = data.resultData.runData[lastNodeExecuted];
				if (runs && runs.length > 0 && runs[runs.length - 1].error !== undefined) runs.pop();
			}
			// With a workflow saved since, n8n puts its nodes on the stack (loadWorkflow).
			for (const entry of data.executionData?.nodeExecutionStack ?? []) {
				entry.node = fixture.nodes.find((node) => node.name === entry.node.name) ?? entry.node;
			}
			return resultOf(
				await new WorkflowExecute(additionalData, 'retry', data).processRunExecutionData(workflow),
			);
		},
	};
}
