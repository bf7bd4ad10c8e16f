declare const __VERSION__: string | undefined;

/** Injected by the build from package.json; the dev fallback keeps tests on the sources working. */
export const VERSION: string = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';
