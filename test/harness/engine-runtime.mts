// What n8n's CLI supplies around each run of the engine tests (engine.mts), besides node and
// credential types: an execution's additional data, the expression engine in its isolated-vm
// sandbox, the engine's early log, and what n8n does at shutdown (stopEngine).
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks } from 'n8n-core';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager.js';
import type {
	ICredentialsHelper,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Expression, LoggerProxy } from 'n8n-workflow';

import { ENGINE_LOG } from './n8n-log.mts';

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
