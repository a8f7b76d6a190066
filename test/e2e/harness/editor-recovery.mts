// The editor suite's recovery tests (issue 45) on a service of their own: the
// workflows, the ten-create scenario's faults and what its first Stop error
// must name, a second run's output, and the figures kept before the tests assert.
import { RELEASE, type SandboxProcess } from '../../harness/sandbox.mts';
import { outreachApiCredential } from './credentials.mts';
import type { Clicks } from './editor-clicks.mts';
import type { RenderedHint } from './editor-hints.mts';
import { lastOutput, runManually } from './editor-rest.mts';
import { recordFigures } from './figures.mts';
import { N8N_CURRENT } from './n8n.mts';
import {
	CREATE_NODE,
	type ByName,
	createsTheseNames,
	failsOnceBeforeWriting,
	names,
	writtenThenFailsEachTime,
} from './re-runs.mts';
import type { Execution, N8n } from './stage.mts';
import { outreachCredential } from './workflows.mts';

const CREDENTIAL = 'outreachRecovery';
const onRecovery = {
	settings: { credentials: outreachCredential(CREDENTIAL, 'Outreach recovery') },
};

/**
 * 10 creates under On Error = Stop: S4 is written, then answered 500 on every
 * send, its answer held until the sandbox is released (once all ten went out:
 * releaseOnceAllSent); S7 is answered 500 once, unwritten.
 */
export const FIRST_STOP = {
	workflow: 'outreach-first-stop',
	names: names(10),
	faults: [{ ...writtenThenFailsEachTime('S4'), holdUntil: RELEASE }, failsOnceBeforeWriting('S7')],
	/** What a user who found S4 in the service and not S7 says for items 3 and 6. */
	expression: `{{ $itemIndex === 3 ? 'countAsDone' : 'sendAgain' }}`,
};
/** Three creates, run twice with nothing set. */
export const RUN_TWICE = { workflow: 'outreach-run-twice', names: names(3, 'T') };
const WARM_UP = { workflow: 'outreach-warm-up', names: names(40, 'warm-') };

/** The recovery service's credential and the workflows that use it. */
export function recoverySetup(service: SandboxProcess) {
	return {
		credential: outreachApiCredential(CREDENTIAL, service.apiKey, service.url, 'Outreach recovery'),
		workflows: [FIRST_STOP, RUN_TWICE, WARM_UP].map(({ workflow, names: list }) =>
			createsTheseNames(workflow, list, onRecovery),
		),
	};
}

/**
 * 40 creates on the recovery service (over REST, no click), then a fresh
 * service: the node's pace there leaves its slow start (one request in
 * flight at first), so the scenario's 10 creates go out side by side, as in
 * an n8n where the node has run before, and its first run meets both faults.
 */
export async function warmPace(n8n: N8n, service: SandboxProcess): Promise<void> {
	const warm = await runManually(n8n, WARM_UP.workflow);
	if (warm.status !== 'success') throw new Error(`The warm-up run ended ${warm.status}`);
	await service.reset();
}

/** Lets S4's answer go once the service has received every create of FIRST_STOP: all are under way when it fails, however fast the machine. */
export async function releaseOnceAllSent(service: SandboxProcess): Promise<void> {
	const all = FIRST_STOP.names.map(({ name }) => `"name":"${name}"`);
	for (;;) {
		const bodies = (await service.requests()).map((request) => request.body);
		if (all.every((name) => bodies.some((body) => body.includes(name)))) break;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	await service.release();
}

/**
 * The first Stop error, against what the service had received and held when
 * the user checked: S4's failure, at item 3 as n8n numbers it; every item
 * gone out; and the sequences it names as created, each by the name and ID
 * the service holds. Its words, from each item's end: test/unit/stop-error.test.mts.
 */
export function expectFirstStopError(
	error: { message: string; description: string },
	checked: ByName,
): void {
	const { names: list } = FIRST_STOP;
	expect([checked.sent.get('S4'), checked.sent.get('S7')]).toEqual([1, 1]);
	expect([checked.created.has('S4'), checked.created.has('S7')]).toEqual([true, false]);
	expect(list.filter(({ name }) => !checked.sent.has(name))).toEqual([]);
	// n8n's "[item 3]" after the node's message, which names the sequence.
	expect(error.message).toMatch(/\[item 3\]$/);
	expect(error.message).toContain('"S4"');
	// The first five the service confirmed, each by its name and ID.
	const created = list.filter(({ name }) => checked.created.has(name) && name !== 'S4');
	expect(created.length).toBeGreaterThan(5);
	const named = [...new Set(error.description.match(/\bseq-[\w-]+/g))];
	expect(named).toEqual(created.slice(0, 5).map(({ name }) => checked.records.get(name)?.id));
	for (const { name } of created.slice(0, 5)) expect(error.description).toContain(`"${name}"`);
}

/**
 * The second run's output: each item skipped, with the ID the service holds,
 * naming the first run's execution; and its one hint, in at most three lines.
 */
export function expectCreatedBefore(runs: {
	first: Execution;
	second: Execution;
	held: ByName;
	hints: RenderedHint[];
}): void {
	const { first, second, held, hints } = runs;
	expect(lastOutput(second, CREATE_NODE).map((item) => item.json)).toEqual(
		RUN_TWICE.names.map(({ name }) => ({
			skipped: true,
			id: held.records.get(name)?.id,
			reason: expect.stringContaining(`"${name}"`),
		})),
	);
	for (const item of lastOutput(second, CREATE_NODE))
		expect(item.json.reason).toContain(` ${first.id}`);
	expect(hints).toHaveLength(1);
	expect(hints[0].text).not.toBe('');
	for (const hint of hints) expect(hint.lines).toBeLessThanOrEqual(3);
}

/** The clicks from the first Stop error to the retry, the error, and what came of it: kept before the test asserts. */
export function keepClickFigures(
	clicks: Clicks,
	error: { message: string; description: string },
	retry: Execution,
	after: ByName,
): void {
	recordFigures('editor', N8N_CURRENT, 'first Stop error to each sequence once', {
		clicks: clicks.made.length,
		made: clicks.made,
		firstError: error,
		retry: retry.status,
		sentByName: Object.fromEntries(after.sent),
	});
}
