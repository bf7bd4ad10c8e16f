import * as z from 'zod';
import {
  ManagementReport,
  ManagementReportHtmlQuery,
  ManagementReportQuery,
} from '../domain/report/management-report.schema.js';
import type { BinaryPayload } from './operation.js';
import { op } from './operation.js';

const Binary = z.custom<BinaryPayload>();

/** Reports across areas (our addition): the management report as data and as a self-contained HTML page. */
export const reportsContract = {
  management: op({
    method: 'GET',
    path: '/reports/management',
    summary: 'Management report: every figure of training, consents, DSFAs, legal documents and the banner (addition)',
    tenant: 'header',
    query: ManagementReportQuery,
    output: ManagementReport,
    status: 200,
  }),
  managementHtml: op({
    method: 'GET',
    path: '/reports/management/html',
    summary: 'The management report as one self-contained HTML page with its charts as SVG (addition)',
    tenant: 'header',
    query: ManagementReportHtmlQuery,
    output: Binary,
    status: 200,
    responseKind: 'binary',
    responseTypes: ['text/html'],
  }),
};
