import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import communityNodes from '@n8n/eslint-plugin-community-nodes';

// The rule sets n8n verifies community packages with: eslint-plugin-n8n-nodes-base
// (community, credentials, nodes) and @n8n/eslint-plugin-community-nodes
// (recommended), combined the way n8n's own `@n8n/node-cli` eslint config
// combines them. That config switches off the five n8n-nodes-base rules below,
// each of which contradicts a community rule or targets n8n's own repository:
// - documentation-url-miscased wants camelCase, documentation-url-not-http-url an
//   http URL: no value satisfies both;
// - inputs/outputs-wrong want the literal 'main', community
//   node-connection-type-literal wants NodeConnectionTypes.Main.
const typescript = {
	parser: tseslint.parser,
	parserOptions: { sourceType: 'module', extraFileExtensions: ['.json'] },
};

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.cache/**', 'test/**', 'sandbox/**', 'scripts/**', 'bench/**', 'examples/**', 'gulpfile.js', 'eslint.config.mjs'] },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended, communityNodes.configs.recommended],
		languageOptions: typescript,
		rules: { 'no-console': 'error' },
	},
	{
		files: ['package.json'],
		extends: [communityNodes.configs.recommended],
		languageOptions: typescript,
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
