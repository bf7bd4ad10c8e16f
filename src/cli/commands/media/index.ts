import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import * as gc from './gc.js';
import * as move from './move.js';

/** `compliance media gc|move`: the media store of the embedded store, across every tenant (an operator's commands). */
export function createMediaCommand(ctx: CliContext): Command {
  const media = new Command('media').description('where the store keeps media files: collect garbage, move them');
  gc.register(media, ctx);
  move.register(media, ctx);
  return media;
}
