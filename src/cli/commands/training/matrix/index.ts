import { Command } from 'commander';
import { ROLES } from '../../../../domain/training/training.values.js';
import type { CliContext } from '../../../context.js';
import * as exportVerb from './export.js';
import * as importVerb from './import.js';
import * as set from './set.js';
import * as show from './show.js';
import * as unset from './unset.js';

/** `training matrix`: show, set and unset entries of the role matrix; export and import it as CSV. */
export function createMatrixCommand(ctx: CliContext): Command {
  const matrix = new Command('matrix').description(`role-to-module matrix (${ROLES.join(', ')})`);
  show.register(matrix, ctx);
  set.register(matrix, ctx);
  unset.register(matrix, ctx);
  exportVerb.register(matrix, ctx);
  importVerb.register(matrix, ctx);
  return matrix;
}
