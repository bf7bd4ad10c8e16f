import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import { DsfaService } from '../../src/domain/dsfa/dsfa.service.js';
import { DsfaCreate } from '../../src/domain/dsfa/dsfa.schema.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { runEventsPass } from '../../src/backend/local/events/events-runner.js';
import { createWebhooksArea } from '../../src/backend/local/webhooks.area.js';
import { sqliteUnitOfWork } from '../support/unit-of-work.js';
import { startReceiver } from '../support/webhook-receiver.js';

describe('events of a change that rolled back', () => {
  it('are never sent: only committed changes reach the journal the deliveries read', async () => {
    const ids = uuidv7Source();
    const { store, uow } = await sqliteUnitOfWork(systemClock, ids);
    const receiver = await startReceiver();
    try {
      const hooks = createWebhooksArea(store, uow, systemClock, ids);
      const ep = await hooks.add({ tenant: 't', body: { url: receiver.url, events: ['*'], allow_private: true } });
      receiver.useSecret(ep.secret);
      const dsfa = new DsfaService(uow, systemClock, ids);
      // the create commits inside a unit of work that then fails: all of it rolls back
      await expect(
        uow.write('t', async () => {
          await dsfa.create('t', 'a', DsfaCreate.parse({ title: 'Rolled back' }));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const kept = await dsfa.create('t', 'a', DsfaCreate.parse({ title: 'Kept' }));
      const pass = await runEventsPass(store, { clock: systemClock });
      expect(pass.webhooks).toMatchObject({ queued: 1, delivered: 1 });
      expect(receiver.received.map((r) => [r.type, r.payload.data.dsfa_id, r.verified])).toEqual([
        ['dsfa.created', kept.id, true],
      ]);
    } finally {
      await receiver.close();
    }
  });
});
