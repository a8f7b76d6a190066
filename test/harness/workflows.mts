// Loads a workflow fixture from test/fixtures and runs it against the sandbox.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import type { Engine, RunResult, WorkflowFixture } from './engine.mts';
import type { SandboxProcess } from './sandbox.mts';

const here = path.dirname(fileURLToPath(import.meta.url));

export const OUTREACH = 'Outreach Sequences';
export const CREDENTIAL_ID = 'sandbox-credential';

/** Request Options with Rate Limit Handling off: an item the service pushes back on fails at once. */
export const RETRY_OFF = {
	requestOptions: { rateLimitHandling: { settings: { enabled: false } } },
};

export type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';

export function loadFixture(name: string): WorkflowFixture {
	const file = path.join(here, '..', 'fixtures', `${name}.workflow.json`);
	return JSON.parse(readFileSync(file, 'utf8')) as WorkflowFixture;
}

export interface RunOptions {
	items: IDataObject[];
	/** Merged over the fixture's parameters of the Outreach Sequences node. */
	parameters?: INodeParameters;
	onError?: OnError;
	/** Credential data; default: the sandbox's URL and key. */
	credential?: ICredentialDataDecryptedObject;
	/** The node's settings besides On Error, e.g. Retry On Fail. */
	settings?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>;
	/** Leave out After Success and After Error: their expressions walk the paired items, half a long run's time. */
	withoutReaders?: true;
	/** How the execution was started; by hand (Execute workflow) by default. */
	mode?: WorkflowExecuteMode;
}

export interface FixtureRun extends RunResult {
	/** The Outreach Sequences node's outputs: [main] or [success, error]. */
	outputs: INodeExecutionData[][];
	/** All items the node put out, on any output. */
	all: INodeExecutionData[];
}

/** Where the credential points: the sandbox's URL and key. */
type Service = Pick<SandboxProcess, 'url' | 'apiKey'>;

/** The fixture with the options applied, and its credentials. */
function prepared(sandbox: Service, name: string, options: RunOptions) {
	const fixture = loadFixture(name);
	const kept = options.withoutReaders
		? fixture.nodes.filter((node) => node.type !== 'test.read')
		: fixture.nodes;
	const nodes = kept.map((node): INode => {
		if (node.name === 'Items')
			return { ...node, parameters: { items: JSON.stringify(options.items) } };
		if (node.name !== OUTREACH) return node;
		const patched: INode = { ...node, parameters: { ...node.parameters, ...options.parameters } };
		if (options.onError) patched.onError = options.onError;
		Object.assign(patched, options.settings);
		return patched;
	});
	const credential = options.credential ?? { apiKey: sandbox.apiKey, baseUrl: sandbox.url };
	const connections = options.withoutReaders
		? Object.fromEntries(Object.entries(fixture.connections).filter(([from]) => from !== OUTREACH))
		: fixture.connections;
	return {
		workflow: { ...fixture, nodes, connections },
		credentials: { [CREDENTIAL_ID]: credential },
	};
}

function withOutputs(result: RunResult): FixtureRun {
	const outputs = result.output(OUTREACH);
	return { ...result, outputs, all: outputs.flat() };
}

export async function runFixture(
	engine: Engine,
	sandbox: Service,
	name: string,
	options: RunOptions,
): Promise<FixtureRun> {
	const { workflow, credentials } = prepared(sandbox, name, options);
	return withOutputs(await engine.run(workflow, credentials, options.mode));
}

/**
 * Executions › Retry of a failed run (Engine.retry). `options` give the
 * workflow to run: the same as the failed run's, or one changed since
 * (loadWorkflow); its Items node is not run again.
 */
export async function retryFixture(
	engine: Engine,
	sandbox: SandboxProcess,
	name: string,
	options: RunOptions,
	failed: RunResult,
): Promise<FixtureRun> {
	const { workflow, credentials } = prepared(sandbox, name, options);
	return withOutputs(await engine.retry(failed.run, workflow, credentials));
}

/** A failed item's facts, which the node puts in `message` in both Continue modes; undefined on a success. */
export function factsOf(item: INodeExecutionData): Record<string, unknown> | undefined {
	return item.json.message as Record<string, unknown> | undefined;
}
