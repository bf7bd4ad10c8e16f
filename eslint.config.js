// ESLint: the recommended rules of ESLint and typescript-eslint; formatting is Prettier's job (`npm run lint`).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers and what each may import (style.md): the domain nothing outward; the contract the domain; the store the
 * domain and the migrations; services (outside engines) the domain; the CLI the store only through named entry points
 * (opening and copying a store, creating a folder). Checked for static imports and for lazy `import()` alike.
 */
const LAYERS = {
  'src/domain/**': ['store', 'backend', 'server', 'cli', 'contract', 'services'],
  'src/contract/**': ['store', 'backend', 'server', 'cli', 'services'],
  'src/store/**': ['backend', 'server', 'cli', 'contract', 'services'],
  'src/services/**': ['store', 'backend', 'server', 'cli'],
  'src/backend/**': ['server', 'cli'],
  'src/server/**': ['cli'],
};
const CLI_STORE_ENTRIES = ['store.js', 'open-store.js', 'copy.js', 'make-folder.js'];

/** A relative import path that reaches into layer `layer` (`../../store/x.js`, `../store/x.js`). */
const into = (layer) => `^(\\.\\./)+${layer}/`;
const outOf = (layers) => `(${layers.map(into).join('|')})`;

function layerRules(files, forbidden, message) {
  // esquery reads a regular expression up to the first unescaped slash
  const selectorRegex = forbidden.replaceAll('/', '\\/');
  return {
    files: [files],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: forbidden, message }] }],
      'no-restricted-syntax': [
        'error',
        { selector: `ImportExpression > Literal[value=/${selectorRegex}/]`, message },
        { selector: `ImportExpression > TemplateLiteral > TemplateElement[value.raw=/${selectorRegex}/]`, message },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench-results/', 'coverage/', 'reports/', '.stryker-tmp/'] },
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
  ...Object.entries(LAYERS).map(([files, layers]) =>
    layerRules(
      files,
      outOf(layers),
      `${files.split('/')[1]} may not import from ${layers.join(', ')} (layers: style.md)`,
    ),
  ),
  layerRules(
    'src/cli/**',
    `^(\\.\\./)+store/(?!(${CLI_STORE_ENTRIES.map((f) => f.replace('.', '\\.')).join('|')})$)`,
    `the CLI reaches the store through the backend, or the named entry points store/${CLI_STORE_ENTRIES.join(', store/')}`,
  ),
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
