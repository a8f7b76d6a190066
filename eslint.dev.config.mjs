// The lint for what is not shipped: tests, the sandbox, scripts and the
// benchmark (`npm run lint` runs it with `eslint -c eslint.dev.config.mjs`).
// eslint.config.mjs is n8n's default, unchanged, as n8n Cloud requires: its
// community-node rules (no `process`, no timers, no `node:` imports, no
// console) cover every .ts file and package.json. Code that is not shipped
// needs all of those, so it is written as .mts, .mjs or .cjs, which n8n's
// config does not match, and is linted here instead.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
	globalIgnores(['dist/', 'node_modules/', '.cache/', '.n8n-local/', 'artifacts/', 'coverage/']),
	{
		linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'error' },
	},
	{
		files: ['**/*.mts', '**/*.mjs', '**/*.cjs', '**/*.js'],
		extends: [js.configs.recommended],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			eqeqeq: ['error', 'always'],
			'no-var': 'error',
			'prefer-const': 'error',
			'no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
			],
		},
	},
	{
		files: ['**/*.mts'],
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
			],
			// Node runs these files as they are, stripping only the types: no TypeScript that needs compiling.
			'@typescript-eslint/parameter-properties': 'error',
			'no-restricted-syntax': [
				'error',
				{
					selector: 'TSEnumDeclaration',
					message: "Node's type stripping can't run an enum: use an object with `as const`.",
				},
				{
					selector: 'TSModuleDeclaration[kind!="global"]',
					message: "Node's type stripping can't run a namespace.",
				},
			],
		},
	},
	{
		files: ['test/**/*.mts'],
		languageOptions: { globals: { ...globals.jest } },
	},
	{
		// n8n's node rules match only .ts: a node or credential file in another
		// form would escape them.
		files: ['nodes/**', 'credentials/**'],
		ignores: ['**/*.ts', '**/*.json', '**/*.svg', '**/*.png'],
		rules: {
			'no-restricted-syntax': [
				'error',
				{
					selector: 'Program',
					message:
						"nodes/ and credentials/ hold .ts files only: n8n's node lint rules cover .ts, not this file.",
				},
			],
		},
	},
);
