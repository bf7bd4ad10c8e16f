import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { usesTenant } from '../../store-access.js';
import * as backup from './backup.js';
import * as copy from './copy.js';
import * as init from './init.js';
import * as status from './status.js';

/** `compliance db`: its verbs in the order help lists them. */
export function createDbCommand(ctx: CliContext): Command {
  // the whole store, every tenant
  const db = usesTenant(
    new Command('db').description('the store: create, status, backup, copy between engines'),
    'none',
  );
  init.register(db, ctx);
  status.register(db, ctx);
  backup.register(db, ctx);
  copy.register(db, ctx);
  return db;
}
