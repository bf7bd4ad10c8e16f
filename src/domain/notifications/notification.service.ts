import { isoZ, type Clock } from '../clock.js';
import { notFound } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import {
  TEMPLATE_NAMES,
  NOTIFICATION_LANGUAGES,
  type NotificationLanguage,
  type NotificationSettings,
  type NotificationSettingsInput,
  type OutboxMessage,
  type OutboxQuery,
  type Template,
  type TemplateInput,
} from './notification.schema.js';
import type { NotificationStore } from './notification-store.port.js';
import { BUILT_IN, LEVEL_TEMPLATES, type Level, type TemplateText } from './templates.js';

export const DEFAULT_SETTINGS: NotificationSettings = {
  language: 'de',
  management_email: null,
  compliance_officer_email: null,
  base_url: null,
  updated_at: null,
};

type Name = (typeof TEMPLATE_NAMES)[number];

/**
 * The template each level's message is written in: the level's own where the tenant set one, else the tenant's
 * `escalation` template (one for every level) where it set that, else the level's built-in one.
 */
export async function levelTemplates(
  store: NotificationStore,
  tenant: string,
  language: NotificationLanguage,
): Promise<Record<Level, TemplateText>> {
  const own = (await store.templates(tenant)).filter((t) => t.language === language);
  const everyLevel = own.find((t) => t.name === 'escalation');
  const of = (name: (typeof LEVEL_TEMPLATES)[Level]) =>
    own.find((t) => t.name === name) ?? everyLevel ?? BUILT_IN[name][language];
  return { 1: of(LEVEL_TEMPLATES[1]), 2: of(LEVEL_TEMPLATES[2]), 3: of(LEVEL_TEMPLATES[3]), 4: of(LEVEL_TEMPLATES[4]) };
}

/** The template in force for a tenant: its own where it stored one, the built-in one otherwise. */
export async function templateFor(
  store: NotificationStore,
  tenant: string,
  name: Name,
  language: NotificationLanguage,
): Promise<TemplateText & { overridden: boolean }> {
  const own = (await store.templates(tenant)).find((t) => t.name === name && t.language === language);
  return own ? { ...own, overridden: true } : { ...BUILT_IN[name][language], overridden: false };
}

/** A tenant's notification settings, templates and outbox. */
export class NotificationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async settings(tenant: string): Promise<NotificationSettings> {
    return (await this.uow.read.notifications.settings(tenant)) ?? DEFAULT_SETTINGS;
  }

  updateSettings(tenant: string, input: NotificationSettingsInput): Promise<NotificationSettings> {
    return this.uow.write(tenant, async ({ notifications }) => {
      const current = (await notifications.settings(tenant)) ?? DEFAULT_SETTINGS;
      // a field not given (or given as undefined) keeps its value
      const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      const next = { ...current, ...given, updated_at: isoZ(this.clock.now()) };
      await notifications.putSettings(tenant, next);
      return next;
    });
  }

  async templates(tenant: string): Promise<Template[]> {
    const out: Template[] = [];
    for (const name of TEMPLATE_NAMES)
      for (const language of NOTIFICATION_LANGUAGES)
        out.push({ name, language, ...(await templateFor(this.uow.read.notifications, tenant, name, language)) });
    return out;
  }

  async template(tenant: string, name: Name, language: NotificationLanguage): Promise<Template> {
    return { name, language, ...(await templateFor(this.uow.read.notifications, tenant, name, language)) };
  }

  setTemplate(tenant: string, name: Name, language: NotificationLanguage, t: TemplateInput): Promise<Template> {
    return this.uow.write(tenant, async ({ notifications }) => {
      await notifications.putTemplate(tenant, { name, language, ...t }, isoZ(this.clock.now()));
      return { name, language, ...t, overridden: true };
    });
  }

  resetTemplate(tenant: string, name: Name, language: NotificationLanguage): Promise<Template> {
    return this.uow.write(tenant, async ({ notifications }) => {
      if (!(await notifications.deleteTemplate(tenant, name, language)))
        throw notFound('overridden template', `${name}/${language}`);
      return { name, language, ...BUILT_IN[name][language], overridden: false };
    });
  }

  outbox(tenant: string, q: OutboxQuery): Promise<OutboxMessage[]> {
    return this.uow.read.notifications.outbox(tenant, q);
  }
}
