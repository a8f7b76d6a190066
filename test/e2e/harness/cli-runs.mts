// What cli.e2e.mts imports into n8n and runs (`n8n execute`): every fixture
// under each On Error mode; contact-archive under Continue with Request
// Options › Timeout at 300 ms, alone and with credentials whose Base URL
// answers nothing (a closed port, a host DNS does not know); and the network
// faults its tests set, with the fault the failed item should carry for each.
import { EXPECTED, MODES, fixtureCopy, type Mode } from './cli.mts';
import { UNKNOWN_HOST_URL, outreachApiCredential } from './credentials.mts';

export const workflowId = (fixture: string, mode: Mode) => `e2e-${fixture}-${mode}`;
/** contact-archive under Continue, with Request Options › Timeout at 300 ms. */
export const FAULTS_WORKFLOW = 'e2e-network-faults';
const faultsSettings = {
	onError: 'continueRegularOutput',
	parameters: { requestOptions: { timeout: 300 } },
};
/** The same, with credentials whose Base URL answers nothing: a closed port, and a host DNS does not know. */
const UNREACHABLE = {
	'e2e-refused': { id: 'e2eRefused', name: 'Outreach refused' },
	'e2e-unknown-host': { id: 'e2eUnknownHost', name: 'Outreach unknown host' },
};

/** The credentials of the workflows that reach nothing, with the sandbox's key; nothing listens at `refusedUrl`. */
export const unreachableCredentials = (apiKey: string, refusedUrl: string) => [
	outreachApiCredential(
		UNREACHABLE['e2e-refused'].id,
		apiKey,
		refusedUrl,
		UNREACHABLE['e2e-refused'].name,
	),
	outreachApiCredential(
		UNREACHABLE['e2e-unknown-host'].id,
		apiKey,
		UNKNOWN_HOST_URL,
		UNREACHABLE['e2e-unknown-host'].name,
	),
];

/** Every fixture under each mode, the network-faults workflow and the two that reach nothing. */
export const cliWorkflows = () => [
	...EXPECTED.flatMap(({ fixture }) =>
		MODES.map((mode) => fixtureCopy(fixture, workflowId(fixture, mode), { onError: mode })),
	),
	fixtureCopy('contact-archive', FAULTS_WORKFLOW, faultsSettings),
	...Object.entries(UNREACHABLE).map(([id, credential]) =>
		fixtureCopy('contact-archive', id, {
			...faultsSettings,
			credentials: { outreachSequencesApi: credential },
		}),
	),
];

/** The faults on contact c-42's archive that leave no answer, and the network fault its item carries for each. */
export const NETWORK_FAULTS = [
	{
		fault: 'an answer slower than Request Options › Timeout',
		setup: { delayMs: 1500 },
		networkError: 'timeout',
	},
	{
		fault: 'a connection dropped before the answer',
		setup: { drop: 'before-response' as const },
		networkError: 'reset',
	},
	{
		fault: 'a reset in the middle of the answer',
		setup: { drop: 'mid-body' as const, status: 200, body: { id: 'c-42', status: 'archived' } },
		networkError: 'reset',
	},
];
