import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { addOperationVerb } from '../../../operation-verb.js';
import * as get from './get.js';
import * as list from './list.js';
import * as operations from './operations.js';
import * as publish from './publish.js';
import * as withdraw from './withdraw.js';

/** `training media`: list, download, sign, publish and withdraw the audio and video of modules. */
export function createMediaCommand(ctx: CliContext): Command {
  const media = new Command('media').description('audio and video of modules');
  list.register(media, ctx);
  get.register(media, ctx);
  addOperationVerb(media, ctx, operations.url);
  publish.register(media, ctx);
  withdraw.register(media, ctx);
  return media;
}
