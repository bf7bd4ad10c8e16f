import { bindHandlers } from '../../contract/bind.js';
import { reportsContract } from '../../contract/reports.contract.js';
import type { Clock } from '../../domain/clock.js';
import { checkTimeZone, ManagementReportService } from '../../domain/report/management-report.service.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';

/** The report routes bound to a store; the HTML is rendered here, so a server answers it whole. */
export function createReportsArea(uow: UnitOfWork, clock: Clock) {
  const svc = new ManagementReportService(uow.read.reports, clock);
  return bindHandlers(reportsContract, {
    management: (r) => svc.report(r.tenant, r.query),
    managementHtml: async (r) => {
      const { lang, time_zone, ...query } = r.query;
      const timeZone = checkTimeZone(time_zone);
      const report = await svc.report(r.tenant, query);
      const { managementDocument } = await import('../../domain/report/management-report.document.js');
      const { renderHtml } = await import('../../services/report/html.js');
      const html = await renderHtml(managementDocument(report, { lang, timeZone }));
      return { content_type: 'text/html; charset=utf-8', data: Buffer.from(html, 'utf8') };
    },
  });
}
