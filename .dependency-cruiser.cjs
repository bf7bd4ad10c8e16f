// The layers and what each may import, checked on the files imports resolve to (static imports, `import()` of a
// literal path, type-only imports alike), and no cycles: `npm run lint` runs it. The picture: docs/architecture.md.
const DOC = 'see docs/architecture.md#layers';

/** A layer (`from`) may import only the files matching `allowed` among the project's own (src/, migrations/). */
const layer = (name, from, allowed, why) => ({
  name,
  severity: 'error',
  comment: `${why} (${DOC})`,
  from: { path: from },
  to: { path: '^(src|migrations)/', pathNot: allowed },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: `modules import each other (counting type-only imports): move what both need into a module of its own (${DOC})`,
      from: {},
      to: { circular: true },
    },
    {
      name: 'resolvable-relative-imports',
      severity: 'error',
      comment: `a relative import that resolves to no file (${DOC})`,
      from: { path: '^(src|migrations)/' },
      to: { couldNotResolve: true, path: '^[.]' },
    },
    layer(
      'domain-imports-only-domain',
      '^src/domain/',
      '^src/domain/',
      'domain/ holds the rules and imports nothing outward: no store, backend, server, cli, contract, services, config or migrations',
    ),
    layer(
      'contract-imports-only-domain',
      '^src/contract/',
      '^src/(contract|domain)/',
      'contract/ describes the wire from the domain schemas; it imports only domain/',
    ),
    layer(
      'services-import-only-domain',
      '^src/services/',
      '^src/(services|domain)/',
      'services/ wrap programs and libraries outside the project behind small interfaces; they import only domain/',
    ),
    layer(
      'store-imports-domain-and-migrations',
      '^src/store/',
      '^(src/(store|domain)/|migrations/(load|names|dialect)[.]ts$)',
      'store/ implements the domain ports on the engines; it imports domain/ and the migrations (their list and dialect.ts), nothing outward',
    ),
    layer(
      'migrations-are-frozen',
      '^migrations/',
      '^migrations/',
      'a migration is frozen when it lands: it carries its own copy of any code it needs (migrations/frozen/), never src/',
    ),
    layer(
      'backend-below-server-and-cli',
      '^src/backend/',
      '^(src/(backend|store|domain|contract|services)/|src/version[.]ts$|migrations/names[.]ts$)',
      'backend/ composes the domain with a store (local) or the contract (http); server, cli, config and main are above it',
    ),
    layer(
      'server-through-ports',
      '^src/server/',
      '^(src/(server|domain|contract)/|src/backend/backend[.]ts$|src/store/store[.]ts$|src/version[.]ts$)',
      'server/ answers the contract through the Backend interface (backend/backend.ts) and the Store port (store/store.ts), never an engine, a kysely store or the CLI',
    ),
    layer(
      'cli-through-backend',
      '^src/cli/',
      '^(src/(cli|backend|server|domain|contract|services)/|src/store/(store|open-store|copy|make-folder)[.]ts$|src/(config|version)[.]ts$)',
      'the CLI reaches the store through the backend, or the named entry points store/store.ts, open-store.ts, copy.ts, make-folder.ts',
    ),
    layer(
      'config-imports-only-domain',
      '^src/config[.]ts$',
      '^src/domain/',
      'config.ts parses the environment and global flags into domain values; it imports only domain/',
    ),
    layer(
      'main-imports-cli',
      '^src/main[.]ts$',
      '^(src/(cli|domain)/|src/(config|version)[.]ts$)',
      'main.ts builds the program and maps errors to exit codes; it reaches everything else through cli/',
    ),
    layer(
      'bundle-imports-main-and-threads',
      '^src/bundle[.]ts$',
      '^src/(main|store/worker-threads)[.]ts$',
      "bundle.ts is what the program's file offers its loader: main's command lines and the store's threads",
    ),
    layer(
      'loader-imports-only-the-bundle',
      '^src/loader[.]ts$',
      '^src/(bundle|store/loaded-program)[.]ts$',
      "loader.ts compiles the program's file and runs it; it names the bundle's shape and what it records of the file",
    ),
    layer('version-is-a-leaf', '^src/version[.]ts$', '^$', 'version.ts imports nothing of the project'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    // type-only imports count: a cycle of types is still a cycle a reader has to untangle
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
