import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import * as install from './install.js';

/** `training catalog`: the catalogue the tool ships. */
export function createCatalogCommand(ctx: CliContext): Command {
  const catalog = new Command('catalog').description('the default catalogue');
  install.register(catalog, ctx);
  return catalog;
}
