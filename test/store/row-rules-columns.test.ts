import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { columnsOf } from '../../src/domain/sync/row-rule.js';
import { ROW_RULES } from '../../src/domain/sync/row-rules.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

// The door refuses a row with a column its table's rule does not name, so a migration that adds a column to a table
// that travels must add it to the rule too (0024 added training_module.title_en: every clone of a store with modules
// ended in conflicts). The rules name exactly the columns of the store's tables, on both engines.
describe.each(ENGINE_NAMES)('the row rules of every table that travels on %s', (engine) => {
  it('name exactly the columns of the table', async () => {
    const b = await createLocalBackend(await freshStore(engine));
    try {
      const tables = await b.store.db.introspection.getTables();
      for (const [entity, rule] of Object.entries(ROW_RULES)) {
        const table = tables.find((t) => t.name === entity);
        expect(table, entity).toBeDefined();
        expect([...columnsOf(rule.schema)].sort(), entity).toEqual(table!.columns.map((c) => c.name).sort());
      }
    } finally {
      await b.close();
    }
  });
});
