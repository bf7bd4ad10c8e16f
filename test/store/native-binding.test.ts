import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nativeBinding } from '../../src/store/sqlite/native-binding.js';
import { openStore } from '../../src/store/open-store.js';
import { tmpDb } from '../support/helpers.js';

// The SQLite store names better-sqlite3's addon to it instead of letting the `bindings` helper search for it.
describe('the native addon of better-sqlite3', () => {
  it('is found where the install put it, and a store opens with it', async () => {
    const file = nativeBinding().nativeBinding;
    expect(file).toMatch(/better-sqlite3[\\/]build[\\/]Release[\\/]better_sqlite3\.node$/);
    expect(existsSync(file!)).toBe(true);
    const store = await openStore(tmpDb());
    try {
      await store.ping();
    } finally {
      await store.close();
    }
  });
});
