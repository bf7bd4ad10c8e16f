// ESLint: the recommended rules of ESLint and typescript-eslint; formatting is Prettier's job, the layers and cycles
// dependency-cruiser's (.dependency-cruiser.cjs, docs/architecture.md), all three in `npm run lint`.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench-results/', 'coverage/', 'reports/', '.stryker-tmp/', 'tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: globals.node,
    },
    rules: {
      // a leading underscore marks a value that is destructured away on purpose (`{ id: _id, ...rest }`)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // dependency-cruiser sees the file an `import()` loads only when its path is written out whole
    files: ['src/**/*.ts', 'migrations/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression > :not(Literal, TemplateLiteral[expressions.length=0])',
          message: 'write the path of import() out whole, so the layer rules see it (docs/architecture.md#layers)',
        },
      ],
    },
  },
  {
    // the entry point is CommonJS (bin/package.json): Node starts it without its ES module loader, some 4 ms sooner
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // the website banner runs in the visitor's browser (src/banner/banner.js), not in Node
    files: ['src/banner/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  {
    // kysely's own advice: migrations are frozen in time and must not depend on today's table types
    files: ['migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
