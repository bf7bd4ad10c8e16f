import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import * as conflictShow from './conflict-show.js';
import * as conflicts from './conflicts.js';
import * as resolve from './resolve.js';
import * as status from './status.js';
import * as sync from './sync.js';

/** `compliance sync`, which runs the sync itself, and its verbs in the order help lists them. */
export function createSyncCommand(ctx: CliContext): Command {
  const group = sync.define(ctx);
  status.register(group, ctx);
  resolve.register(group, ctx);
  conflictShow.register(conflicts.register(group, ctx), ctx);
  return group;
}
