// Execution hints in n8n's own engine: which kinds a run gives, in its run data
// (runData[node][0].hints) as n8n stores them for the output pane. Their words:
// test/unit/hints*.test.mts. Retry On Fail's next try: re-runs.test.mts.
import type { NodeExecutionHint } from 'n8n-workflow';

import type { Fault } from '../harness/sandbox.mts';
import { useEnvironment } from '../harness/setup.mts';
import { runFixture, type RunOptions } from '../harness/workflows.mts';

const env = useEnvironment();
const ARCHIVES = [{ id: 'c-42' }, { id: 'c-43' }, { id: '42' }];
const CONTINUE = { onError: 'continueRegularOutput' } as const;

test.each<[string, string, Omit<RunOptions, 'items'>, Fault | undefined, string[]]>([
	['a clean run', 'contact-archive', {}, undefined, []],
	// Under Stop: the item pushed back on twice is then archived, and nothing stops.
	[
		'a rate-limited run',
		'contact-archive',
		{},
		{ pathPrefix: '/v1/contacts/c-43/', status: 429, headers: { 'Retry-After': '1' }, times: 2 },
		['info'],
	],
	['failed items under Continue', 'contact-archive', CONTINUE, { status: 500 }, ['warning']],
	[
		'Retry On Fail on',
		'contact-archive',
		{ ...CONTINUE, settings: { retryOnFail: true } },
		undefined,
		['warning'],
	],
	[
		'Retry On Fail on a get',
		'use-case-get',
		{ ...CONTINUE, settings: { retryOnFail: true } },
		undefined,
		[],
	],
])('%s (%s): the hints n8n stores', async (_, fixture, options, fault, types) => {
	if (fault) await env.sandbox.addFault({ pathPrefix: '/v1/contacts/42/', ...fault });
	const items = fixture === 'use-case-get' ? [{ id: 'uc-1' }] : ARCHIVES;
	const run = await runFixture(env.engine, env.sandbox, fixture, { items, ...options });
	expect(run.error).toBeUndefined();
	expect(run.all.map((item) => item.json.id ?? 'failed')).toEqual(
		items.map(({ id }) => (fault?.status === 500 && id === '42' ? 'failed' : id)),
	);
	const { hints = [] } = run.run.data.resultData.runData['Outreach Sequences'][0] as {
		hints?: NodeExecutionHint[];
	};
	expect(hints.map(({ type, location }) => [type, location])).toEqual(
		types.map((type) => [type, 'outputPane']),
	);
});
