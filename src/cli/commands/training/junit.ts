import type { Assignment } from '../../../domain/training/training.schema.js';

/**
 * Text for an XML attribute or element. Characters XML 1.0 cannot carry at all (C0 controls other than tab, line feed
 * and carriage return, lone surrogates, U+FFFE and U+FFFF) are dropped, since no escape exists for them; a report
 * that a CI server cannot parse would hide every overdue training in it.
 */
export const xml = (s: string) => s.replace(NOT_XML, '').replace(/[<>&"'\t\n\r]/g, (c) => XML_ESCAPES[c]!);

/* eslint-disable no-control-regex -- these control characters are exactly what must go */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/* eslint-enable no-control-regex */

const XML_ESCAPES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  '"': '&quot;',
  "'": '&apos;',
  // kept as characters references, so attribute values keep them instead of normalising them to spaces
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** An overdue assignment with the escalation level it has reached. */
export type OverdueRow = Assignment & { days_overdue: number; level: number };

/** Who a test case is about: the person, or only the assignment id when personal data must stay out of CI logs. */
const subject = (a: OverdueRow, personal: boolean) =>
  personal ? `${a.user_name} <${a.user_email}>` : `assignment ${a.id}`;

/** JUnit XML: each overdue assignment is a failed test case, so CI servers list them. */
export function junit(items: OverdueRow[], at: string, { personal = true } = {}): string {
  const count = Math.max(1, items.length);
  const cases = items.length
    ? items.map((a) => {
        const name = xml(`${subject(a, personal)}: ${a.module_title}`);
        const message = xml(`overdue by ${a.days_overdue} day(s), escalation level ${a.level}`);
        return [
          `    <testcase classname="training.${xml(a.module_code)}" name="${name}" time="0">`,
          `      <failure message="${message}" type="overdue">assignment ${xml(a.id)}, deadline ${xml(a.deadline)}</failure>`,
          '    </testcase>',
        ].join('\n');
      })
    : ['    <testcase classname="training" name="no overdue trainings" time="0"/>'];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="compliance training" tests="${count}" failures="${items.length}">`,
    `  <testsuite name="overdue trainings as of ${xml(at)}" tests="${count}" failures="${items.length}" timestamp="${xml(at)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
