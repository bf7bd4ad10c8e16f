// The rows of the management-report benchmark, written by set-based statements straight into the tables.

// The same rows on both engines: one statement per table over a generated series. Timestamps are ISO text in UTC;
// consents spread over the last 13 months, a tenth of the granted ones revoked, one in five a refusal.
export const DAY = 86_400_000;
export const now = Date.now();
export const iso = (ms) => new Date(ms).toISOString();
const start = now - 395 * DAY;

/** SQL for each engine: `series(n)` yields i = 0 … n-1, `ts(expr)` turns a millisecond offset into ISO text. */
const dialects = {
  sqlite: {
    series: (n) => `with recursive g(i) as (select 0 union all select i + 1 from g where i < ${n - 1})`,
    from: 'from g',
    ts: (ms) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`,
    pad: (expr, n) => `substr('000000000000' || (${expr}), -${n})`,
    mod: (a, b) => `((${a}) % ${b})`,
    div: (a, b) => `((${a}) / ${b})`,
  },
  postgres: {
    series: () => '',
    from: (n) => `from generate_series(0::bigint, ${n - 1}) as g(i)`,
    ts: (ms) =>
      `to_char(to_timestamp((${ms})::double precision / 1000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    pad: (expr, n) => `lpad((${expr})::text, ${n}, '0')`,
    mod: (a, b) => `((${a}) % ${b})`,
    div: (a, b) => `((${a}) / ${b})`,
  },
};

export function statements(engine, tenant, consents, assignments) {
  const d = dialects[engine];
  const from = (n) => (engine === 'sqlite' ? 'from g' : d.from(n));
  const pre = (n) => (engine === 'sqlite' ? d.series(n) : '');
  const id = (prefix) => `'${prefix}-0000-7000-8000-' || ${d.pad('i', 12)}`;
  const t = tenant.replace(/'/g, "''");
  const spread = (span) => `${start} + ${d.mod('i * 7919', span)}::bigint * 1000`;
  const sql = [];
  // consents: 8 data points, user ids shared by 4 consents each
  sql.push(`${pre(consents)} insert into consent (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at,
      consent_version, source, ip_address, user_agent, created_at)
    select ${id(tenant === 'default' ? '01900000' : '01910000')}, '${t}', 'user' || ${d.div('i', 4)} || '@example.com',
      'dp' || ${d.mod('i', 8)},
      case when ${d.mod('i', 5)} = 0 then 0 else 1 end,
      ${d.ts(spread(395 * 86400))},
      case when ${d.mod('i', 5)} <> 0 and ${d.mod('i', 10)} = 1 then ${d.ts(`${spread(395 * 86400)} + 20 * ${DAY}::bigint`)} end,
      '1.0', 'web_banner', '192.0.2.' || ${d.mod('i', 250)},
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      ${d.ts(spread(395 * 86400))}
    ${from(consents)}`);
  // assignments over the tenant's modules: 40 % completed, 10 % in progress, the rest pending; a quarter of the open
  // ones overdue by 1 to 60 days
  sql.push(`${pre(assignments)} insert into training_assignment (id, tenant_id, module_id, user_id, user_name, user_email,
      role_code, status, progress_percent, deadline, escalation_level, quiz_passed, certificate_id, started_at,
      completed_at, valid_until, created_at, updated_at)
    select ${id(tenant === 'default' ? '01920000' : '01930000')}, '${t}', m.id, 'user' || i, 'User ' || i, 'user' || i || '@example.com',
      'R' || (1 + ${d.mod('i', 10)}),
      case when ${d.mod('i', 10)} < 4 then 'completed' when ${d.mod('i', 10)} = 4 then 'in_progress' else 'pending' end,
      case when ${d.mod('i', 10)} < 4 then 100 else 0 end,
      case when ${d.mod('i', 4)} = 0 then ${d.ts(`${now} - (1 + ${d.mod('i', 60)}) * ${DAY}::bigint`)}
           else ${d.ts(`${now} + (10 + ${d.mod('i', 50)}) * ${DAY}::bigint`)} end,
      case when ${d.mod('i', 4)} = 0 and ${d.mod('i', 60)} >= 14 then 1 else 0 end,
      case when ${d.mod('i', 10)} < 3 then 1 else 0 end, null, null,
      case when ${d.mod('i', 10)} < 4 then ${d.ts(spread(360 * 86400))} end,
      null, ${d.ts(`${start}`)}, ${d.ts(`${start}`)}
    ${from(assignments)}
    join (select id, row_number() over (order by id) - 1 as n from training_module where tenant_id = '${t}') m
      on m.n = ${d.mod('i', 32)}`);
  // a quiz attempt for every completed assignment, certificates for the passed ones
  sql.push(`insert into training_quiz_attempt (id, tenant_id, assignment_id, module_id, score, passed, correct_count,
      total_count, threshold, answers, duration_seconds, created_at)
    select 'q' || id, tenant_id, id, module_id, 40 + length(user_id) * 7 % 60, quiz_passed, 4, 5, 70, '[]', 60, completed_at
    from training_assignment where tenant_id = '${t}' and status = 'completed'`);
  sql.push(`insert into training_certificate (id, tenant_id, assignment_id, user_id, user_name, module_id, module_code,
      module_title, score, issued_at, valid_until, signature)
    select 'c' || a.id, a.tenant_id, a.id, a.user_id, a.user_name, a.module_id, m.module_code, m.title, 90, a.completed_at,
      a.completed_at, 'sig'
    from training_assignment a join training_module m on m.id = a.module_id
    where a.tenant_id = '${t}' and a.quiz_passed = 1`);
  // SQLite's integers are 64-bit already; PostgreSQL's casts mean nothing to it
  return engine === 'sqlite' ? sql.map((q) => q.replace(/::(bigint|double precision)/g, '')) : sql;
}
