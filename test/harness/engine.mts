// Runs workflows through n8n's own engine (n8n-core WorkflowExecute) with this package loaded as
// n8n loads a community package (PackageDirectoryLoader over the built dist/ and package.json's
// "n8n" entries), and what n8n's CLI supplies around the engine, nothing more: a credentials
// helper, the node types (and two test-only ones), an execution's additional data, the expression
// engine in its isolated-vm sandbox, the engine's early log, and what n8n does at shutdown.
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, PackageDirectoryLoader, WorkflowExecute } from 'n8n-core';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager.js';
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IConnections,
	IDataObject,
	IExecuteFunctions,
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
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	Expression,
	ICredentialsHelper,
	LoggerProxy,
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
} from 'n8n-workflow';

import { NODE_TYPE, ROOT } from '../../scripts/n8n/versions.mts';
import { ENGINE_LOG } from './n8n-log.mts';
import { processedRows } from './processed-store.mts';

export { NODE_TYPE };
/** The package folder, which n8n-core loads as it loads a community package. */
export const PACKAGE_DIR = ROOT;

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
	/** A new execution, started as `mode` says: by hand (Execute workflow) by default. */
	run(
		workflow: WorkflowFixture,
		credentials: Record<string, ICredentialDataDecryptedObject>,
		mode?: WorkflowExecuteMode,
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
	const credentialTypes: Record<string, ICredentialType> = Object.fromEntries(
		Object.entries(loader.credentialTypes).map(([name, { type }]) => [name, type]),
	);
	const nodeTypes = nodeTypesOf(types);

	/** The workflow and what n8n's CLI supplies around the engine, for one run of `fixture`. */
	function prepare(
		fixture: WorkflowFixture,
		credentials: Record<string, ICredentialDataDecryptedObject>,
	) {
		const settings = { executionOrder: 'v1' as const };
		const data = { id: 'test-workflow', name: fixture.name ?? 'test', active: false, settings };
		const workflow = new Workflow({ ...data, ...fixture, nodeTypes });
		const additionalData = makeAdditionalData(
			new CredentialsHelper(credentialTypes, new Map(Object.entries(credentials))),
			{ ...data, ...fixture } as unknown as IWorkflowBase,
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
		async run(fixture, credentials, mode = 'manual') {
			const { workflow, additionalData } = prepare(fixture, credentials);
			const startNode =
				fixture.nodes.find((node) => node.type === TEST_NODE_TYPES.items) ?? fixture.nodes[0];
			return resultOf(await new WorkflowExecute(additionalData, mode).run({ workflow, startNode }));
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

export class CredentialsHelper extends ICredentialsHelper {
	private readonly types: Record<string, ICredentialType>;
	private readonly store: Map<string, ICredentialDataDecryptedObject>;

	constructor(
		types: Record<string, ICredentialType>,
		store: Map<string, ICredentialDataDecryptedObject>,
	) {
		super();
		this.types = types;
		this.store = store;
	}

	/** The package's credential authenticates with a function, which n8n calls as is. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.types[typeName]?.authenticate;
		if (typeof authenticate !== 'function')
			throw new Error(`${typeName} has no authenticate function`);
		return await authenticate(credentials, requestOptions);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		{ id }: INodeCredentialsDetails,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store.get(id ?? '');
		if (!data) throw new Error(`No credential with id ${id}`);
		return { ...data };
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}

	getParentTypes = (): string[] => [];
	isCredentialUsableByNode = () => true;
	preAuthentication = async () => undefined;
	runPreAuthentication = async () => undefined;
	getCredentials = async (): Promise<ICredentials> => {
		throw new Error('not used by the engine');
	};
	updateCredentials = async () => {};
	updateCredentialsOauthTokenData = async () => {};
}

/** Test-only node types: a source of items, and a reader of expressions. */
export class ItemsNode implements INodeType {
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

export class ReadNode implements INodeType {
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

/** Node types by name, as n8n-core asks for them. */
export function nodeTypesOf(types: INodeTypeData): INodeTypes {
	const getByName = (type: string): INodeType | IVersionedNodeType => {
		const found = types[type];
		if (!found) throw new Error(`Unknown node type ${type}`);
		return found.type;
	};
	return {
		getByName,
		getByNameAndVersion: (type, version) =>
			NodeHelpers.getVersionedNodeType(getByName(type), version),
		getKnownTypes: () => ({}),
	};
}

/** Each run's execution ID, as n8n's CLI numbers executions. */
let executions = 0;

export function makeAdditionalData(
	credentialsHelper: ICredentialsHelper,
	workflowData: IWorkflowBase,
): IWorkflowExecuteAdditionalData {
	return {
		executionId: String(++executions),
		credentialsHelper,
		hooks: new ExecutionLifecycleHooks('manual', 'test-execution', workflowData),
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
	} as unknown as IWorkflowExecuteAdditionalData;
}

let expressionEngineReady: Promise<void> | undefined;

/** n8n 2.x evaluates expressions in an isolated-vm sandbox by default; so do the tests. */
export function startExpressionEngine(): Promise<void> {
	expressionEngineReady ??= Expression.initExpressionEngine({
		engine: 'vm',
		bridgeTimeout: 5000,
		bridgeMemoryLimit: 128,
		poolSize: 1,
		maxCodeCacheSize: 1024,
	});
	return expressionEngineReady;
}

/**
 * What n8n does at shutdown, at the end of a test file. n8n-core's SSH clients manager's unref'd
 * 60 s interval holds the file's copy of n8n-core (about 45 MB) until the jest worker ends, and a
 * worker that ran every engine file took longer to exit than jest's 500 ms.
 */
export async function stopEngine(): Promise<void> {
	Container.get(SSHClientsManager).onShutdown();
	if (expressionEngineReady) {
		await expressionEngineReady;
		await Expression.disposeExpressionEngine();
		expressionEngineReady = undefined;
	}
}

/** The engine's log lines before n8n-core builds its logger, into n8n's log, which the secret scan reads. */
export function captureEngineLog(): void {
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
