// Lint: typed rules everywhere, zero warnings allowed (npm run check), plus the architecture rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Globals that reach the network or storage: only src/services may use them. */
const networkAndStorageGlobals = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'localStorage',
  'sessionStorage',
  'indexedDB',
].map((name) => ({
  name,
  message: `${name} belongs in src/services: machines and views only send events and render states.`,
}));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'scripts/build.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      // Fastify plugins are async by contract even when they register synchronously.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['src/machines/**', 'src/views/**'],
    rules: {
      'no-restricted-globals': ['error', ...networkAndStorageGlobals],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'fetch', message: 'Network calls belong in src/services.' },
        { object: 'window', property: 'localStorage', message: 'Storage belongs in src/services.' },
        { object: 'window', property: 'sessionStorage', message: 'Storage belongs in src/services.' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/services/**', '**/services'],
              message: 'Machines and views never import services; src/app wires them.',
            },
            {
              group: ['axios', 'rxjs/ajax', 'ky', 'node:*'],
              message: 'No network or platform access in machines and views.',
            },
          ],
        },
      ],
    },
  },
  {
    // Scripts, benches and tests print to the terminal by design.
    files: ['scripts/**', 'bench/**', 'tests/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read API answers as untyped JSON on purpose: they check the wire, not our types.
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
);
