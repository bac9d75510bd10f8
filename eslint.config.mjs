// ESLint 9 flat config with typescript-eslint's type-aware rules (issue 13).
// Type information comes from tsconfig.json through the project service, so every linted file
// (api, workers, jobs, shared, scripts, bench, test) must be in tsconfig.json's "include".
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['node_modules/', '**/dist/', '.local/', 'bench/out/', 'backtest-out/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      // An async function without await is deliberate here: it implements a Promise-returning
      // interface (providers, worker start functions, handlers) and turns a synchronous throw into a
      // rejection the caller's .catch / Express 5 sees. Dropping `async` would change that behaviour.
      '@typescript-eslint/require-await': 'off',
      // A leading underscore marks a deliberately unused binding: Express's four-argument error
      // handler needs `_next`, and `{ a: _a, ...rest }` is how a key is left out of a copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Promise.all over `Promise | null` / `void | Promise<void>` (node-cron's stop) is deliberate:
      // the values that are not promises are simply already settled.
      '@typescript-eslint/await-thenable': ['error', { allowMixedPromiseArrays: true }],
      // `cond ? a() : b()` as a statement is used on purpose in the simulation's tight loops.
      '@typescript-eslint/no-unused-expressions': ['error', { allowTernary: true }],
    },
  },
  {
    // Tests only. chai asserts through property access (`expect(x).to.be.true`), which is an
    // expression statement by design. The tests read HTTP bodies, JSON and lean documents as `any`
    // on purpose (the asserted shape is the test itself): with the no-unsafe-* family on, test/
    // has over 1000 reports. These rules stay on for api, workers, jobs, shared, scripts and bench.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // This config file itself is plain ESM JavaScript outside tsconfig.json: no type information.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS tool configs (.dependency-cruiser.cjs): Node's module globals.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' } },
  },
  {
    // The dashboard's browser modules (dashboard/js, served as they are): browser globals, ES modules.
    files: ['dashboard/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        ['window', 'document', 'location', 'navigator', 'fetch', 'crypto', 'console', 'setTimeout', 'clearTimeout', 'Node', 'Intl', 'ResizeObserver', 'HTMLElement', 'URLSearchParams', 'history'].map(
          (name) => [name, 'readonly'],
        ),
      ),
    },
  },
);
