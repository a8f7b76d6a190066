// Runs workflows through n8n's own engine (n8n-core WorkflowExecute) with this package loaded as
// n8n loads a community package (PackageDirectoryLoader over the built dist/ and package.json's
// "n8n" entries). What n8n's CLI supplies around the engine is in engine-*.mts, and nothing more.
import { PackageDirectoryLoader, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeData,
	IRun,
	IWorkflowBase,
	IConnections,
	ExecutionError,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { NODE_TYPE, ROOT } from '../../scripts/n8n/versions.mts';
import { CredentialsHelper } from './engine-credentials.mts';
import { ItemsNode, nodeTypesOf, ReadNode, TEST_NODE_TYPES } from './engine-node-types.mts';
import {
	captureEngineLog,
	makeAdditionalData,
	startExpressionEngine,
	stopEngine,
} from './engine-runtime.mts';
import { processedRows } from './processed-store.mts';

export { NODE_TYPE, stopEngine };
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
