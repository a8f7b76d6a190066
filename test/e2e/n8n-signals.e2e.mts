// The n8n signals the node's tool mode reads (N8N_SIGNALS in scripts/n8n-signals.mts) are in
// the n8n versions CI installs, each where its `since` says. `npm run try:n8n`
// checks the other versions of README › Compatibility the same way.
import { n8nInstallDir } from '../../scripts/n8n/versions.mts';
import { checkN8nSignals, missingSignals } from '../../scripts/n8n-signals.mts';
import { N8N_CURRENT, N8N_MAINTAINED, prepareN8n } from './harness/n8n.mts';

test.each([N8N_CURRENT, N8N_MAINTAINED])(
	'n8n %s has every signal tool mode reads from its version on',
	(version) => {
		prepareN8n(version);
		const checks = checkN8nSignals(n8nInstallDir(version));
		expect(missingSignals(checks).map((check) => `${check.signal}: ${check.reads}`)).toEqual([]);
	},
);
