import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addOperationVerb } from '../../operation-verb.js';
import * as lint from './lint.js';
import * as operations from './operations.js';
import * as set from './set.js';

/** `compliance cookie-banner`: its verbs in the order help lists them. */
export function createCookieBannerCommand(ctx: CliContext): Command {
  const banner = new Command('cookie-banner').description('the cookie-banner configuration of the tenant');
  addOperationVerb(banner, ctx, operations.get);
  set.register(banner, ctx);
  lint.register(banner, ctx);
  return banner;
}
