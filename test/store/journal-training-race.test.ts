import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import { TrainingService } from '../../src/domain/training/training.service.js';
import type { AssignmentRecord, AuditRecord } from '../../src/domain/training/training-store.port.js';
import type { UnitOfWork } from '../../src/domain/unit-of-work.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { ENGINE_NAMES } from '../support/helpers.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { journalOf } from '../support/unit-of-work.js';

// A compute that loses a race on PostgreSQL: the unique index on open assignments turns its duplicate into nothing
// written (ON CONFLICT DO NOTHING), and the journal and the audit get only the assignments that were written. Under
// the tenant's lock two computes no longer overlap, so the test writes the losing batch itself; SQLite has no such
// index (its write lock serialises every writer), so this is PostgreSQL's.
const T = 'race';
const NOW = '2026-06-15T12:00:00.000Z';

describe.skipIf(!ENGINE_NAMES.includes('postgres'))(
  'assignments on PostgreSQL written after a rival wrote one of them first',
  () => {
    let store: Store;
    let uow: UnitOfWork;
    const ids = uuidv7Source();
    beforeAll(async () => {
      store = await openStore(await freshPostgresDatabase());
      uow = createUnitOfWork(store, fixedClock(NOW), ids);
    });
    afterAll(async () => store.close());

    it('are journaled and audited only as far as they were written', async () => {
      const t = new TrainingService(uow, fixedClock(NOW), ids, () => '00');
      const [a, c] = await forTenant(T, async () => {
        const made = [];
        for (const code of ['R-1', 'R-2'])
          made.push(
            (
              await t.createModule(T, 'hr', {
                module_code: code,
                title: code,
                description: '',
                regulation_area: 'dsgvo',
                frequency_type: 'annual',
                duration_minutes: 30,
                pass_threshold: 70,
                validity_days: 365,
              })
            ).id,
          );
        await t.setMatrix(T, { role_code: 'R9', module_id: made[0]!, is_mandatory: true, priority: 1 });
        // the rival's: erika's open assignment of the first module
        await t.compute(T, 'rival', {
          user_id: 'erika',
          user_name: 'Erika',
          user_email: 'erika@example.com',
          roles: ['R9'],
          deadline_days: 30,
        });
        return made;
      });
      const record = (module_id: string): AssignmentRecord => ({
        id: ids.next(),
        tenant_id: T,
        module_id,
        user_id: 'erika',
        user_name: 'Erika',
        user_email: 'erika@example.com',
        role_code: 'R9',
        status: 'pending',
        progress_percent: 0,
        deadline: NOW,
        escalation_level: 0,
        quiz_passed: false,
        certificate_id: null,
        started_at: null,
        completed_at: null,
        valid_until: null,
        created_at: NOW,
        updated_at: NOW,
      });
      const audit = (a: AssignmentRecord): AuditRecord => ({
        id: ids.next(),
        tenant_id: T,
        action: 'assigned',
        entity_type: 'assignment',
        entity_id: a.id,
        actor: 'loser',
        details: {},
        created_at: NOW,
      });
      const lost = record(a!);
      const won = record(c!);
      const before = (await forTenant(T, () => journalOf(store, T))).length;
      const written = await forTenant(T, () =>
        uow.write(T, ({ training }) =>
          training.insertAssignments([lost, won], new Map([lost, won].map((x) => [x.id, audit(x)]))),
        ),
      );
      expect(written).toEqual([won.id]);
      const entries = await forTenant(T, () => journalOf(store, T, before));
      expect(
        entries.map(
          (e) =>
            `${e.entity} ${e.op} ${e.entity === 'training_audit' ? (e.data as { entity_id: string }).entity_id : e.entity_id}`,
        ),
      ).toEqual([`training_assignment insert ${won.id}`, `training_audit insert ${won.id}`]);
      expect(entries[0]!.data).toMatchObject({ id: won.id, module_id: c, quiz_passed: 0 });
    });
  },
);
