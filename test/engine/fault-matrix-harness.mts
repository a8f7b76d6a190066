// What the fault-matrix suites share (fault-matrix.test.mts,
// fault-matrix-network.test.mts): the three On Error modes, the three
// contacts of which only the middle one (c-43) meets the fault, the facts a
// failed item carries, and one case run under one mode with every check the
// matrix makes of it: which items fail, with which facts and code, the same
// text in every mode, and what the details quote.
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import type { Fault } from '../harness/sandbox.mts';
import type { Environment } from '../harness/setup.mts';
import { runFixture, type FixtureRun, type OnError } from '../harness/workflows.mts';

export const MODES: OnError[] = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];
const ITEMS = [{ id: 'c-42' }, { id: 'c-43' }, { id: 'a/b?c#d' }];
export const FAULTY = 1;

/** Everything a user or a log could see of a run: run data, and the error's message, description and cause. */
function visibleText(run: FixtureRun): string {
	const error = run.error as (Error & { description?: string; cause?: unknown }) | undefined;
	const parts = [JSON.stringify(run.run.data)];
	if (error)
		parts.push(
			error.message,
			String(error.description ?? ''),
			JSON.stringify(error, Object.getOwnPropertyNames(error)),
		);
	if (error?.cause)
		parts.push(JSON.stringify(error.cause, Object.getOwnPropertyNames(error.cause)));
	return parts.join('\n');
}

/** Each case's texts, as each mode gave them: one text for the failure, whatever the mode. */
const textsOf = new Map<string, Set<unknown>>();

function expectOneText(testCase: Case, text: unknown): void {
	expect(typeof text === 'string' && text !== '').toBe(true);
	// One text per case, whichever contact it names.
	const shape = ITEMS.reduce((said, item) => said.split(item.id).join('<id>'), String(text));
	const texts = textsOf.get(testCase.name) ?? new Set<unknown>();
	textsOf.set(testCase.name, texts.add(shape));
	expect(texts.size).toBe(1);
}

export interface Case {
	name: string;
	fault?: Fault;
	parameters?: INodeParameters;
	credential?: () => ICredentialDataDecryptedObject;
	/** Which items fail: the middle one, or all (a fault of the Base URL). */
	failing: number[];
	/**
	 * What the error's description (its details) must hold of what happened:
	 * the service's answer as it came, or the network's code. Under Stop it
	 * may begin with what was done before the failure, so it is matched in
	 * the last paragraph. The words around it: test/unit/texts-http.test.mts.
	 */
	details?: string | RegExp;
	/** The facts each failed item carries (docs/errors.md › Failed items). */
	facts: Facts;
}

export interface Facts {
	statusCode: number | null;
	networkError: string | null;
	timesSent: number;
	retryAfterSeconds: number | null;
	outcome: 'notActed' | 'mayHaveActed';
}

/**
 * An HTTP failure of an archive (a POST), sent once: the service did not act
 * when it refused (4xx) or asked to wait (503 with Retry-After). A 503
 * without Retry-After may come from a gateway after it passed the request on
 * (issue 43), as may any other 5xx.
 */
export function httpFacts(status: number, retryAfterSeconds: number | null = null): Facts {
	const notActed =
		(status >= 400 && status < 500) || (status === 503 && retryAfterSeconds !== null);
	return {
		statusCode: status,
		networkError: null,
		timesSent: 1,
		retryAfterSeconds,
		outcome: notActed ? 'notActed' : 'mayHaveActed',
	};
}

export function networkFacts(networkError: string, outcome: Facts['outcome']): Facts {
	return { statusCode: null, networkError, timesSent: 1, retryAfterSeconds: null, outcome };
}

export async function runCase(env: Environment, testCase: Case, mode: OnError): Promise<void> {
	if (testCase.fault)
		await env.sandbox.addFault({ pathPrefix: '/v1/contacts/c-43/', ...testCase.fault });
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: ITEMS,
		onError: mode,
		parameters: testCase.parameters,
		credential: testCase.credential?.(),
	});
	const healthy = ITEMS.map((_, index) => index).filter(
		(index) => !testCase.failing.includes(index),
	);

	if (mode === 'stopWorkflow') {
		expectOneText(testCase, run.error?.message);
		expect(run.error).toMatchObject({ context: { itemIndex: testCase.failing[0] } });
		if (testCase.facts.statusCode !== null)
			expect(run.error).toMatchObject({ httpCode: String(testCase.facts.statusCode) });
		// The details come last; before them, what the run did with each item (stopError.ts).
		const paragraphs = String((run.error as { description?: string }).description ?? '').split(
			'\n\n',
		);
		const details = paragraphs[paragraphs.length - 1];
		if (testCase.details !== undefined)
			if (typeof testCase.details === 'string') expect(details).toContain(testCase.details);
			else expect(details).toMatch(testCase.details);
		// Each healthy contact the service archived before the stop is named there.
		const archived = (await env.sandbox.requests())
			.filter((request) => (request.status ?? 500) < 300)
			.map((request) => decodeURIComponent(request.url.split('/')[3]))
			.filter((id) => healthy.some((index) => ITEMS[index].id === id));
		for (const id of archived) expect(paragraphs.slice(0, -1).join('\n')).toContain(id);
		expect(run.output('After Success')).toEqual([]);
		expect(run.output('After Error')).toEqual([]);
	} else if (mode === 'continueRegularOutput') {
		expect(run.error).toBeUndefined();
		expect(run.outputs).toHaveLength(1);
		expect(run.outputs[0].map((item) => item.pairedItem)).toEqual(
			ITEMS.map((_, item) => ({ item })),
		);
		for (const index of testCase.failing) {
			const { error, ...facts } = run.outputs[0][index].json;
			expectOneText(testCase, error);
			expect(facts).toEqual({ message: testCase.facts });
		}
		for (const index of healthy) expect(run.outputs[0][index].json.id).toBe(ITEMS[index].id);
	} else {
		expect(run.error).toBeUndefined();
		const [success, failure] = run.outputs;
		expect(success.map((item) => item.pairedItem)).toEqual(healthy.map((item) => ({ item })));
		expect(success.map((item) => item.json.id)).toEqual(healthy.map((index) => ITEMS[index].id));
		expect(failure.map((item) => item.pairedItem)).toEqual(
			testCase.failing.map((item) => ({ item })),
		);
		for (const item of failure) {
			expectOneText(testCase, item.json.error);
			// Only error and message are the node's: n8n adds the input item's fields (id) on the error output.
			expect(Object.keys(item.json).sort()).toEqual(['error', 'id', 'message']);
			expect(item.json.message).toEqual(testCase.facts);
		}
		// Downstream nodes still reach each input item.
		const readBack = run
			.output('After Error')[0]
			.map((item) => (item.json.read as { input: { id: string } }).input.id);
		expect(readBack).toEqual(testCase.failing.map((index) => ITEMS[index].id));
	}
	expect(visibleText(run)).not.toContain(env.sandbox.apiKey);
}
