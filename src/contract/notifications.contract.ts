import * as z from 'zod';
import {
  Language,
  NotificationSettings,
  NotificationSettingsInput,
  OutboxMessage,
  OutboxQuery,
  Template,
  TemplateInput,
  TemplateName,
} from '../domain/notifications/notification.schema.js';
import { op } from './operation.js';

const Which = z.object({ name: TemplateName, language: Language });

/** Escalation e-mail: who gets it, its templates, the outbox (issue 26; our addition): admin keys only. */
export const notificationsContract = {
  settings: op({
    method: 'GET',
    path: '/notifications/settings',
    summary: 'Language and the management and compliance-officer addresses (defaults until set)',
    tenant: 'header',
    output: NotificationSettings,
    status: 200,
    scope: 'admin',
  }),
  updateSettings: op({
    method: 'PATCH',
    path: '/notifications/settings',
    summary: 'Change some settings (null clears an address)',
    tenant: 'header',
    body: NotificationSettingsInput,
    output: NotificationSettings,
    status: 200,
    scope: 'admin',
  }),
  templates: op({
    method: 'GET',
    path: '/notifications/templates',
    summary: 'Every template in force, built-in or the tenant’s own',
    tenant: 'header',
    output: z.array(Template),
    status: 200,
    scope: 'admin',
  }),
  template: op({
    method: 'GET',
    path: '/notifications/templates/{name}/{language}',
    summary: 'One template in force',
    tenant: 'header',
    params: Which,
    output: Template,
    status: 200,
    scope: 'admin',
  }),
  setTemplate: op({
    method: 'PUT',
    path: '/notifications/templates/{name}/{language}',
    summary: 'Override a template',
    tenant: 'header',
    params: Which,
    body: TemplateInput,
    output: Template,
    status: 200,
    scope: 'admin',
  }),
  resetTemplate: op({
    method: 'DELETE',
    path: '/notifications/templates/{name}/{language}',
    summary: 'Back to the built-in template',
    tenant: 'header',
    params: Which,
    output: Template,
    status: 200,
    scope: 'admin',
  }),
  outbox: op({
    method: 'GET',
    path: '/notifications/outbox',
    summary: 'Queued and sent e-mail, newest first (failed=true: given up or being retried)',
    tenant: 'header',
    query: OutboxQuery,
    output: z.array(OutboxMessage),
    status: 200,
    scope: 'admin',
  }),
};
