import type * as Crypto from 'node:crypto';

let loaded: typeof Crypto | undefined;

/**
 * node:crypto, loaded when first used: loading it costs a command some 7 ms, and many commands (a list, a sync with
 * nothing to move) neither hash nor draw an id.
 */
export const nodeCrypto = (): typeof Crypto => (loaded ??= process.getBuiltinModule('node:crypto'));
