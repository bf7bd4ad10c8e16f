import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { addOperationVerb } from '../../../operation-verb.js';
import * as operations from './operations.js';
import * as set from './set.js';

/** `notifications templates`: its verbs in the order help lists them. */
export function createTemplatesCommand(ctx: CliContext): Command {
  const templates = new Command('templates').description(
    'the e-mail templates (built in for de and en; a tenant may override)',
  );
  addOperationVerb(templates, ctx, operations.list);
  addOperationVerb(templates, ctx, operations.show);
  set.register(templates, ctx);
  addOperationVerb(templates, ctx, operations.reset);
  return templates;
}
