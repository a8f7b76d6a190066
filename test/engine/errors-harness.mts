// What errors.test.mts's runs share: a run of three contacts, the middle one meeting a fault, with the checks
// every such run gets; what it gives back: the failed item's text, facts and
// Stop error, and what the service received for it.
import type { Fault } from '../harness/sandbox.mts';
import type { Environment } from '../harness/setup.mts';
import { startOver } from '../harness/setup.mts';
import { factsOf, runFixture } from '../harness/workflows.mts';

/** archiveWithFault, in the environment of a test file. */
export function archiverIn(env: Environment) {
	/**
	 * Three contacts, the middle one meeting the fault, with On Error = Continue;
	 * then that contact alone with On Error = Stop, for the error's details.
	 */
	async function archiveWithFault(fault: Fault, parameters = {}) {
		const faulty = { pathPrefix: '/v1/contacts/c-43/', ...fault };
		await env.sandbox.addFault(faulty);
		const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'c-42' }, { id: 'c-43' }, { id: 'a/b?c#d' }],
			onError: 'continueRegularOutput',
			parameters,
		});
		expect(run.all).toHaveLength(3);
		expect(run.all.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(run.all[0].json.id).toBe('c-42');
		expect(run.all[2].json.id).toBe('a/b?c#d');
		expect(JSON.stringify(run.run.data)).not.toContain(env.sandbox.apiKey);
		// The paths the middle contact's archive was sent to, as the service received them, in order.
		const sent = (await env.sandbox.requests())
			.filter((request) => request.url.startsWith('/v1/contacts/c-43/'))
			.map((request) => request.url);

		await startOver(env);
		await env.sandbox.addFault(faulty);
		const stopped = await runFixture(env.engine, env.sandbox, 'contact-archive', {
			items: [{ id: 'c-43' }],
			parameters,
		});
		const error = stopped.error as
			| (Error & { httpCode?: string; description?: string })
			| undefined;
		expect(error?.message).toBe(run.all[1].json.error);
		expect(JSON.stringify(stopped.run.data)).not.toContain(env.sandbox.apiKey);
		return { message: String(run.all[1].json.error), error, facts: factsOf(run.all[1]), sent };
	}
	return archiveWithFault;
}
