// One engine and one sandbox per test file; the sandbox's data is reset between tests.
import { createEngine, stopExpressionEngine } from './engine.mts';
import type { Engine } from './engine.mts';
import { SandboxProcess } from './sandbox.mts';

export interface Environment {
	engine: Engine;
	sandbox: SandboxProcess;
}

export function useEnvironment(): Environment {
	const environment = {} as Environment;
	beforeAll(async () => {
		environment.sandbox = await SandboxProcess.start();
		environment.engine = await createEngine();
	});
	afterEach(async () => {
		await environment.sandbox?.reset();
	});
	afterAll(async () => {
		await environment.sandbox?.close();
		await stopExpressionEngine();
	});
	return environment;
}
