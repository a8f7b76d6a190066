// One engine and one sandbox per test file; between tests, the sandbox's data
// is reset, and the node forgets the pace it learned from the service and the
// creates it made lately, as a new n8n process would.
import { jest } from '@jest/globals';
import { createRequire } from 'node:module';
import path from 'node:path';

import { PACKAGE_DIR, createEngine, stopEngine } from './engine.mts';
import type { Engine } from './engine.mts';
import { SandboxProcess } from './sandbox.mts';
import { processedRows } from './processed-store.mts';

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
	afterEach(async () => await startOver(environment));
	afterAll(async () => {
		await environment.sandbox?.close();
		await stopEngine();
	});
	return environment;
}

/** The sandbox's data reset, and the node's paces and recent creates forgotten: as between tests, for a test that runs twice. */
export async function startOver(environment: Environment): Promise<void> {
	await environment.sandbox?.reset();
	forgetLearnedPaces();
	forgetKnown();
	(await processedRows()).rows.clear();
}

/** A module of the node as n8n-core loaded it from dist/. */
const nodeModule = <T,>(file: string) =>
	createRequire(import.meta.url)(
		path.join(PACKAGE_DIR, 'dist', 'nodes', 'OutreachSequences', 'run', file),
	) as T;

/** Every service's pace forgotten, as a new n8n process has none. */
const forgetLearnedPaces = () =>
	nodeModule<{ forgetServices: () => void }>('pace/servicePace.js').forgetServices();

/** What this process knows beside n8n's store forgotten (run/memory/memory.ts). */
export const forgetKnown = () =>
	nodeModule<{ forgetKnown: () => void }>('memory/memory.js').forgetKnown();

/** Only Date is faked, from `now`: n8n's and the node's timers stay real. */
export function fakeDateOnly(now: number | Date, advanceTimers = false): void {
	jest.useFakeTimers({
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
		now,
		advanceTimers,
	});
}
