import type { Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import { ROLES } from '../../../domain/training/training.values.js';
import type { CliContext } from '../../context.js';
import { defined, readText } from '../../input.js';
import { note, printJson, printList, printRecord, writeOut } from '../../output.js';
import { outputFormat, writeOutputFile } from '../../output-file.js';
import { csvCell, moduleId, num, parseCsv, req } from './shared.js';
import { writes } from '../../store-access.js';
import { flagFields } from '../../flag-names.js';

/** `training matrix`: show, set and unset entries of the role matrix; export and import it as CSV. */
export function addMatrixCommands(ctx: CliContext, training: Command): void {
  const b = () => ctx.backend();
  const matrix = training.command('matrix').description(`role-to-module matrix (${ROLES.join(', ')})`);
  matrix
    .command('show')
    .description("show the role matrix, or one role's modules")
    .argument('[role]')
    .action(async (role?: string) => {
      const api = (await b()).training;
      const rows = role ? await api.matrixByRole({ ...req(ctx), params: { role } }) : await api.matrix(req(ctx));
      await printList(
        ctx,
        rows,
        [
          { header: 'ROLE', value: (e) => e.role_code },
          { header: 'MODULE', value: (e) => e.module_code },
          { header: 'TITLE', value: (e) => e.module_title },
          { header: 'MANDATORY', value: (e) => (e.is_mandatory ? 'yes' : 'no') },
          { header: 'PRIORITY', value: (e) => e.priority },
        ],
        { empty: 'the matrix is empty' },
      );
    });
  flagFields(writes(matrix.command('set')), {
    role_code: '<role>',
    module_id: '<module>',
    is_mandatory: '--mandatory',
  })
    .description('require a module for a role (or change its priority)')
    .argument('<role>')
    .argument('<module>', 'id or module_code')
    .option('--mandatory')
    .option('--priority <n>', '1 (highest) to 10, default 5')
    .action(async (role: string, mod: string, o: { mandatory?: boolean; priority?: string }) => {
      const backend = await b();
      const e = await backend.training.setMatrix({
        ...req(ctx),
        body: defined({
          role_code: role,
          module_id: await moduleId(ctx, backend, mod),
          is_mandatory: Boolean(o.mandatory),
          priority: num(o.priority),
        }),
      });
      await printRecord(ctx, e, Object.entries(e));
    });
  writes(matrix.command('unset'))
    .description('remove a module from a role')
    .argument('<role>')
    .argument('<module>')
    .action(async (role: string, mod: string) => {
      const backend = await b();
      const r = await backend.training.unsetMatrix({
        ...req(ctx),
        params: { role, moduleId: await moduleId(ctx, backend, mod) },
      });
      if (ctx.config().json) printJson(ctx, r);
      else writeOut(ctx, r.message);
    });
  matrix
    .command('export')
    .description('CSV for a spreadsheet: role_code,module_code,module_title,is_mandatory,priority')
    .option('-o, --output <file>')
    .option(
      '--raw-cells',
      "write cells that start with = + - @, a tab or CR as they are (by default with a ' in front)",
    )
    .action(async (o: { output?: string; rawCells?: boolean }) => {
      outputFormat('matrix export', { csv: ['csv'] }, o, 'csv');
      const rows = await (await b()).training.matrix(req(ctx));
      const csv =
        [
          'role_code,module_code,module_title,is_mandatory,priority',
          ...rows.map((e) =>
            [e.role_code, e.module_code, e.module_title, e.is_mandatory, e.priority]
              .map((v) => csvCell(v, o.rawCells))
              .join(','),
          ),
        ].join('\n') + '\n';
      if (o.output) await writeOutputFile(o.output, csv);
      else ctx.io.stdout.write(csv);
    });
  writes(matrix.command('import'))
    .description('replace matrix entries from a CSV file as written by matrix export')
    .argument('<file>', 'CSV with role_code,module_code[,is_mandatory,priority]')
    .action(async (file: string) => {
      const backend = await b();
      const { fields, rows } = await parseCsv(await readText(ctx, file));
      const missing = ['role_code', 'module_code'].filter((f) => !fields.includes(f));
      if (missing.length) throw new DomainError('bad_request', `${file}: missing column(s) ${missing.join(', ')}`);
      const codes = new Map(
        (await backend.training.listModules(req(ctx))).map((m) => [m.module_code.toLowerCase(), m.id]),
      );
      let set = 0;
      const refused: string[] = [];
      for (const { line, row } of rows) {
        const id = codes.get((row.module_code ?? '').trim().toLowerCase());
        if (!id) {
          refused.push(`line ${line}: unknown module_code ${row.module_code}`);
          continue;
        }
        try {
          await backend.training.setMatrix({
            ...req(ctx),
            body: defined({
              role_code: row.role_code?.trim(),
              module_id: id,
              is_mandatory: /^(true|1|yes|ja)$/i.test(row.is_mandatory ?? ''),
              priority: num(row.priority?.trim() || undefined),
            }),
          });
          set++;
        } catch (e) {
          if (!(e instanceof DomainError) || e.code !== 'validation') throw e;
          refused.push(`line ${line}: ${e.message}`);
        }
      }
      for (const r of refused) note(ctx, r);
      if (ctx.config().json) printJson(ctx, { set, refused: refused.length });
      else writeOut(ctx, `${set} entries set, ${refused.length} refused`);
      if (refused.length) ctx.exitCode = 6;
    });
}
