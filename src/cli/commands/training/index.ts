import { readFile } from 'node:fs/promises';
import { outputFormat, writeOutputFile } from '../../output-file.js';
import { Command, Option } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { Assignment, Module } from '../../../domain/training/training.schema.js';
import {
  ASSIGNMENT_STATUSES,
  AUDIT_ACTIONS,
  AUDIT_ENTITY_TYPES,
  FREQUENCY_TYPES,
  REGULATION_AREAS,
  ROLES,
} from '../../../domain/training/training.values.js';
import type { CliContext } from '../../context.js';
import { defined, readJson, readText } from '../../input.js';
import { note, printJson, printList, printRecord, writeOut, type Column } from '../../output.js';
import { createBlocksCommand } from './blocks.js';
import { createCanonicalCommand } from './canonical.js';
import { addContentCommands } from './content.js';
import { addCertificateCommands, addDeadlineCommands } from './deadlines.js';
import { csvCell, moduleId, parseCsv, parseWhen, req } from './shared.js';
import { usesTenant, writes } from '../../store-access.js';
import { flagFields } from '../../flag-names.js';

export const assignmentColumns: Column<Assignment>[] = [
  { header: 'ID', value: (a) => a.id, id: true },
  { header: 'USER', value: (a) => a.user_name },
  { header: 'MODULE', value: (a) => a.module_code },
  { header: 'STATUS', value: (a) => a.status },
  { header: 'PROGRESS', value: (a) => `${a.progress_percent}%` },
  { header: 'DEADLINE', value: (a) => a.deadline.slice(0, 10) },
  { header: 'LEVEL', value: (a) => a.escalation_level },
  { header: 'QUIZ', value: (a) => (a.quiz_passed ? 'passed' : '-') },
];
const moduleColumns: Column<Module>[] = [
  { header: 'ID', value: (m) => m.id, id: true },
  { header: 'CODE', value: (m) => m.module_code },
  { header: 'TITLE', value: (m) => m.title },
  { header: 'AREA', value: (m) => m.regulation_area },
  { header: 'FREQUENCY', value: (m) => m.frequency_type },
  { header: 'MIN', value: (m) => m.duration_minutes },
  { header: 'QUESTIONS', value: (m) => m.question_count },
];
const assignmentPairs = (a: Assignment): Array<[string, unknown]> => Object.entries(a);

function moduleFlags(cmd: Command): Command {
  return flagFields(cmd, {
    module_code: '--code',
    regulation_area: '--area',
    frequency_type: '--frequency',
    duration_minutes: '--duration',
  })
    .option('--code <code>', 'module_code (unique)')
    .option('--title <title>')
    .option('--title-en <title>', 'the English title, for English e-mail ("" clears it)')
    .option('--description <text>')
    .addOption(new Option('--area <area>', `regulation_area: ${REGULATION_AREAS.join(', ')}`))
    .addOption(new Option('--frequency <type>', `frequency_type: ${FREQUENCY_TYPES.join(', ')}`))
    .option('--duration <minutes>', 'duration_minutes (default 30)')
    .option('--pass-threshold <percent>', '0 to 100 (default 70)')
    .option('--validity-days <days>', 'how long a completion counts (default 365)')
    .option('-f, --file <file>', 'JSON body (also questions[]); flags override it');
}
type ModuleFlags = {
  code?: string;
  title?: string;
  titleEn?: string;
  description?: string;
  area?: string;
  frequency?: string;
  duration?: string;
  passThreshold?: string;
  validityDays?: string;
  file?: string;
};
const num = (v?: string) => (v === undefined ? undefined : /^-?\d+$/.test(v) ? Number(v) : v);
async function moduleBody(ctx: CliContext, o: ModuleFlags) {
  const base = o.file ? ((await readJson(ctx, o.file)) as Record<string, unknown>) : {};
  return {
    ...base,
    ...defined({
      module_code: o.code,
      title: o.title,
      title_en: o.titleEn,
      description: o.description,
      regulation_area: o.area,
      frequency_type: o.frequency,
      duration_minutes: num(o.duration),
      pass_threshold: num(o.passThreshold),
      validity_days: num(o.validityDays),
    }),
  };
}

export function createTrainingCommand(ctx: CliContext): Command {
  const training = new Command('training').description(
    'compliance training: modules, role matrix, assignments, quizzes, escalation, certificates',
  );
  const b = () => ctx.backend();

  // ---- modules
  const modules = training.command('modules').description('training modules');
  flagFields(modules.command('list'), { regulation_area: '--area', frequency_type: '--frequency' })
    .description('list modules by area and code; filter by area, role or text')
    .addOption(new Option('--area <area>', REGULATION_AREAS.join(', ')))
    .addOption(new Option('--frequency <type>', FREQUENCY_TYPES.join(', ')))
    .option('--search <words>', 'full text over title and description')
    .action(async (o: { area?: string; frequency?: string; search?: string }) => {
      await printList(
        ctx,
        await (
          await b()
        ).training.listModules({
          ...req(ctx),
          query: { regulation_area: o.area, frequency_type: o.frequency, search: o.search },
        }),
        moduleColumns,
        { empty: 'no modules (try `compliance training catalog install`)' },
      );
    });
  modules
    .command('show')
    .description('show one module by id or code')
    .argument('<id-or-code>')
    .action(async (idc: string) => {
      const backend = await b();
      const m = await backend.training.getModule({ ...req(ctx), params: { id: await moduleId(ctx, backend, idc) } });
      await printRecord(ctx, m, [
        ...Object.entries(m).filter(([k]) => !['questions', 'content'].includes(k)),
        ['content', m.content ? `version ${m.content.version} (${m.content.language})` : 'none'],
        ['questions', m.questions.map((q, i) => `${i + 1}. ${q.question}`)],
      ]);
    });
  moduleFlags(usesTenant(writes(modules.command('create')), 'starts').description('create a module')).action(
    async (o: ModuleFlags) => {
      const m = await (await b()).training.createModule({ ...req(ctx), body: await moduleBody(ctx, o) });
      await printRecord(
        ctx,
        m,
        Object.entries(m).filter(([k]) => k !== 'questions'),
      );
    },
  );
  moduleFlags(
    writes(modules.command('update')).description('change fields of a module').argument('<id-or-code>'),
  ).action(async (idc: string, o: ModuleFlags) => {
    const backend = await b();
    const m = await backend.training.updateModule({
      ...req(ctx),
      params: { id: await moduleId(ctx, backend, idc) },
      body: await moduleBody(ctx, o),
    });
    await printRecord(
      ctx,
      m,
      Object.entries(m).filter(([k]) => k !== 'questions'),
    );
  });
  writes(modules.command('delete'))
    .argument('<id-or-code>')
    .description('delete a module without assignments')
    .action(async (idc: string) => {
      const backend = await b();
      const r = await backend.training.deleteModule({ ...req(ctx), params: { id: await moduleId(ctx, backend, idc) } });
      if (ctx.config().json) printJson(ctx, r);
      else writeOut(ctx, r.message);
    });

  // ---- catalogue
  usesTenant(writes(training.command('catalog').description('the default catalogue').command('install')), 'starts')
    .description('install the shipped modules, questions and role matrix (idempotent)')
    .option('--file <catalog.json>', 'another catalogue of the same shape')
    .action(async (o: { file?: string }) => {
      const { fixturePath } = await import('../../../backend/local/package-files.js');
      const catalog = JSON.parse(await readFile(o.file ?? fixturePath('training', 'catalog.json'), 'utf8')) as {
        modules: Array<Record<string, unknown> & { module_code: string }>;
        matrix: Array<{ role_code: string; module_code: string; is_mandatory?: boolean; priority?: number }>;
      };
      const api = (await b()).training;
      const existing = new Map((await api.listModules(req(ctx))).map((m) => [m.module_code, m.id]));
      let created = 0;
      for (const m of catalog.modules) {
        if (existing.has(m.module_code)) continue;
        existing.set(m.module_code, (await api.createModule({ ...req(ctx), body: m })).id);
        created++;
      }
      for (const e of catalog.matrix) {
        const id = existing.get(e.module_code);
        if (!id) throw new DomainError('validation', `catalogue matrix names unknown module ${e.module_code}`);
        await api.setMatrix({
          ...req(ctx),
          body: {
            role_code: e.role_code,
            module_id: id,
            is_mandatory: e.is_mandatory ?? false,
            priority: e.priority ?? 5,
          },
        });
      }
      const summary = {
        modules: catalog.modules.length,
        created,
        unchanged: catalog.modules.length - created,
        matrix_entries: catalog.matrix.length,
      };
      if (ctx.config().json) printJson(ctx, summary);
      else
        writeOut(
          ctx,
          `catalogue: ${summary.created} module(s) created, ${summary.unchanged} already there, ${summary.matrix_entries} matrix entries set`,
        );
    });

  // ---- matrix
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

  // ---- assignments
  const asg = training.command('assignments').description('assignments of modules to people');
  flagFields(writes(asg.command('compute')), {
    user_name: '--name',
    user_email: '--email',
    manager_email: '--manager-email',
  })
    .description('assign what the matrix calls for: one user by flags, or a staff list with --users')
    .option(
      '--users <users.csv>',
      'CSV with user_id,user_name,user_email,roles (roles separated by ; or |), optionally manager_email',
    )
    .option('--user-id <id>')
    .option('--name <name>')
    .option('--email <email>')
    .option('--manager-email <email>', 'the team lead, told of a level 2 escalation')
    .option('--roles <roles>', 'e.g. R9,R5')
    .addOption(new Option('--trigger <t>', 'onboarding, annual, event, manual'))
    .option('--deadline-days <n>', 'default 30')
    .action(
      async (o: {
        users?: string;
        userId?: string;
        name?: string;
        email?: string;
        managerEmail?: string;
        roles?: string;
        trigger?: string;
        deadlineDays?: string;
      }) => {
        const api = (await b()).training;
        if (o.users) {
          const { ComputeInput } = await import('../../../domain/training/training.schema.js');
          const { detailsFromZod } = await import('../../../domain/validation.js');
          // the options every row shares are checked once, before the file is read: a bad one is one usage error
          const shared = ComputeInput.pick({ trigger: true, deadline_days: true }).safeParse(
            { trigger: o.trigger, deadline_days: num(o.deadlineDays) },
            { reportInput: true },
          );
          if (!shared.success) {
            const flags: Record<string, string> = { trigger: '--trigger', deadline_days: '--deadline-days' };
            const details = detailsFromZod(shared.error).map((d) => ({
              path: flags[d.path] ?? d.path,
              message: d.message,
            }));
            throw new DomainError('validation', details.map((d) => `${d.path}: ${d.message}`).join('; '), details);
          }
          const { fields, rows } = await parseCsv(await readText(ctx, o.users));
          const missing = ['user_id', 'user_name', 'user_email', 'roles'].filter((f) => !fields.includes(f));
          if (missing.length)
            throw new DomainError(
              'bad_request',
              `${o.users}: missing column(s) ${missing.join(', ')}; found ${fields.join(', ')}`,
            );
          const users = [];
          const refused: Array<{ line: number; reason: string }> = [];
          for (const { line, row } of rows) {
            const parsed = ComputeInput.safeParse(
              {
                // an empty cell is a missing value, so the message says "required" rather than "invalid"
                user_id: row.user_id?.trim() || undefined,
                user_name: row.user_name?.trim() || undefined,
                user_email: row.user_email?.trim() || undefined,
                manager_email: row.manager_email?.trim() || undefined,
                roles: (row.roles ?? '').split(/[;|,\s]+/).filter(Boolean),
                trigger: o.trigger,
                deadline_days: num(o.deadlineDays),
              },
              { reportInput: true },
            );
            if (parsed.success) users.push(parsed.data);
            else
              refused.push({
                line,
                reason: detailsFromZod(parsed.error)
                  .map((d) => `${d.path}: ${d.message}`)
                  .join('; '),
              });
          }
          for (const r of refused) note(ctx, `line ${r.line}: ${r.reason}`);
          const r = users.length ? await api.computeMany({ ...req(ctx), body: { users } }) : { users: 0, created: 0 };
          const summary = { users: r.users, created: r.created, refused: refused.length };
          if (ctx.config().json) printJson(ctx, { ...summary, refusals: refused });
          else
            writeOut(
              ctx,
              `${summary.users} user(s), ${summary.created} assignment(s) created, ${summary.refused} row(s) refused`,
            );
          if (refused.length) ctx.exitCode = 6;
          return;
        }
        if (!o.userId || !o.name || !o.email || !o.roles)
          throw new DomainError(
            'bad_request',
            'assignments compute needs --users FILE, or --user-id, --name, --email and --roles',
          );
        const r = await api.compute({
          ...req(ctx),
          body: defined({
            user_id: o.userId,
            user_name: o.name,
            user_email: o.email,
            manager_email: o.managerEmail,
            roles: o.roles.split(/[;|,\s]+/).filter(Boolean),
            trigger: o.trigger,
            deadline_days: num(o.deadlineDays),
          }),
        });
        if (ctx.config().json) return printJson(ctx, r);
        await printList(ctx, r.assignments, assignmentColumns, { empty: 'nothing new to assign' });
        note(ctx, `${r.created} assignment(s) created`);
      },
    );
  flagFields(asg.command('list'), { module_id: '--module' })
    .description('list assignments; filter by user, module, status or overdue')
    .option('--user-id <id>')
    .option('--module <id-or-code>')
    .addOption(new Option('--role <role>', ROLES.join(', ')))
    .addOption(new Option('--status <status>', ASSIGNMENT_STATUSES.join(', ')))
    .option('--limit <n>', '1 to 500, default 50')
    .option('--offset <n>')
    .action(
      async (o: {
        userId?: string;
        module?: string;
        role?: string;
        status?: string;
        limit?: string;
        offset?: string;
      }) => {
        const backend = await b();
        const module_id = o.module ? await moduleId(ctx, backend, o.module) : undefined;
        await printList(
          ctx,
          await backend.training.listAssignments({
            ...req(ctx),
            query: { user_id: o.userId, module_id, role: o.role, status: o.status, limit: o.limit, offset: o.offset },
          }),
          assignmentColumns,
          { empty: 'no assignments' },
        );
      },
    );
  asg
    .command('show')
    .description('show one assignment')
    .argument('<id>')
    .action(async (id: string) => {
      const a = await (await b()).training.getAssignment({ ...req(ctx), params: { id } });
      await printRecord(ctx, a, assignmentPairs(a));
    });
  flagFields(writes(asg.command('update')), { user_name: '--name', user_email: '--email' })
    .description('change the deadline, name or e-mail of an assignment')
    .argument('<id>')
    .option('--deadline <date>', 'a date (2027-03-31, lasting to its end in UTC) or an ISO timestamp with a zone')
    .option('--name <name>')
    .option('--email <email>')
    .action(async (id: string, o: { deadline?: string; name?: string; email?: string }) => {
      const a = await (
        await b()
      ).training.updateAssignment({
        ...req(ctx),
        params: { id },
        body: defined({
          deadline:
            o.deadline === undefined ? undefined : parseWhen(o.deadline, '--deadline', 'deadline', { endOfDay: true }),
          user_name: o.name,
          user_email: o.email,
        }),
      });
      await printRecord(ctx, a, assignmentPairs(a));
    });
  for (const verb of ['start', 'complete'] as const) {
    writes(asg.command(verb))
      .description(
        verb === 'start' ? 'start an assignment' : 'complete an assignment (a certificate then needs a passed quiz)',
      )
      .argument('<id>')
      .action(async (id: string) => {
        const a = await (await b()).training[verb]({ ...req(ctx), params: { id }, body: {} });
        await printRecord(ctx, a, assignmentPairs(a));
      });
  }
  flagFields(writes(asg.command('progress')), { progress: '<percent>' })
    .description('record progress in percent (starts a pending assignment)')
    .argument('<id>')
    .argument('<percent>')
    .action(async (id: string, p: string) => {
      const a = await (await b()).training.progress({ ...req(ctx), params: { id }, body: { progress: num(p) } });
      await printRecord(ctx, a, assignmentPairs(a));
    });

  addQuizCommands(ctx, training);
  addContentCommands(ctx, training);
  training.addCommand(createCanonicalCommand(ctx));
  training.addCommand(createBlocksCommand(ctx));
  addDeadlineCommands(ctx, training);
  addCertificateCommands(ctx, training);

  training
    .command('audit-log')
    .description('training audit log, newest first')
    .addOption(new Option('--action <a>', AUDIT_ACTIONS.join(', ')))
    .addOption(new Option('--entity-type <t>', AUDIT_ENTITY_TYPES.join(', ')))
    .option('--limit <n>')
    .option('--offset <n>')
    .action(async (o: { action?: string; entityType?: string; limit?: string; offset?: string }) => {
      await printList(
        ctx,
        await (
          await b()
        ).training.auditLog({
          ...req(ctx),
          query: { action: o.action, entity_type: o.entityType, limit: o.limit, offset: o.offset },
        }),
        [
          { header: 'WHEN', value: (e) => e.created_at },
          { header: 'ACTION', value: (e) => e.action },
          { header: 'ENTITY', value: (e) => `${e.entity_type} ${e.entity_id}`, id: true },
          { header: 'BY', value: (e) => e.actor },
          { header: 'DETAILS', value: (e) => e.details },
        ],
        { empty: 'no audit entries' },
      );
    });
  training
    .command('stats')
    .description('assignments by status, overdue and completion rate')
    .action(async () => {
      const s = await (await b()).training.stats(req(ctx));
      await printRecord(ctx, s, Object.entries(s));
    });
  return training;
}

function addQuizCommands(ctx: CliContext, training: Command) {
  const quiz = training.command('quiz').description('quizzes');
  quiz
    .command('attempts')
    .description('quiz attempts of an assignment, newest first')
    .argument('<assignment-id>')
    .action(async (id: string) => {
      await printList(
        ctx,
        await (await ctx.backend()).training.attempts({ ...req(ctx), params: { assignmentId: id } }),
        [
          { header: 'WHEN', value: (x) => x.created_at },
          { header: 'SCORE', value: (x) => `${x.score}%` },
          { header: 'PASSED', value: (x) => (x.passed ? 'yes' : 'no') },
          { header: 'CORRECT', value: (x) => `${x.correct_count}/${x.total_count}` },
        ],
        { empty: 'no attempts yet' },
      );
    });
  writes(quiz.command('take'))
    .description(
      'answer the quiz of an assignment in the terminal (or --answers FILE with [{question_id, selected_index}])',
    )
    .argument('<assignment-id>')
    .option('--answers <file>', 'answers as JSON, for scripts')
    .action(async (id: string, o: { answers?: string }) => {
      const api = (await ctx.backend()).training;
      const a = await api.getAssignment({ ...req(ctx), params: { id } });
      const q = await api.quiz({ ...req(ctx), params: { moduleId: a.module_id } });
      let answers: Array<{ question_id: string; selected_index: number }>;
      const started = Date.now();
      if (o.answers) answers = (await readJson(ctx, o.answers)) as typeof answers;
      else {
        if (!(ctx.io.stdinIsTTY && ctx.io.stderrIsTTY))
          throw new DomainError(
            'bad_request',
            'quiz take asks its questions on a terminal; without one, pass --answers FILE',
          );
        const { select } = await import('@inquirer/prompts');
        answers = [];
        for (const [i, question] of q.questions.entries()) {
          const selected_index = await select(
            {
              message: `${i + 1}/${q.questions.length} ${question.question}`,
              choices: question.options.map((text, value) => ({ name: text, value })),
            },
            { input: ctx.io.stdin, output: ctx.io.stderr },
          );
          answers.push({ question_id: question.id, selected_index });
        }
      }
      const r = await api.submitQuiz({
        ...req(ctx),
        params: { moduleId: a.module_id },
        body: { assignment_id: id, answers, duration_seconds: Math.round((Date.now() - started) / 1000) },
      });
      // a script learns the outcome from the exit code, as from the other checks
      if (!r.passed) ctx.exitCode = 6;
      if (ctx.config().json) return printJson(ctx, r);
      writeOut(
        ctx,
        `${r.passed ? 'Passed' : 'Not passed'}: ${r.score}% (${r.correct_count} of ${r.total_count} correct, ${r.threshold}% needed)`,
      );
      const detail = await api.getModule({ ...req(ctx), params: { id: a.module_id } });
      for (const [i, question] of detail.questions.entries()) {
        const given = answers.find((x) => x.question_id === question.id)?.selected_index;
        const ok = given === question.correct_index;
        const chosen = given === undefined ? '(no answer)' : (question.options[given] ?? `(option ${given})`);
        const lines = [`${ok ? '✓' : '✗'} ${i + 1}. ${question.question}`, `   your answer: ${chosen}`];
        if (!ok) lines.push(`   correct: ${question.options[question.correct_index]}`);
        if (question.explanation) lines.push(`   ${question.explanation}`);
        writeOut(ctx, lines.join('\n'));
      }
    });
}
