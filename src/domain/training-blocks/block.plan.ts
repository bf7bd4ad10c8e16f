import type { CanonicalControl, ControlFilter } from './canonical.schema.js';
import { byControlId } from './canonical.service.js';
import type { Block, PlannedModule } from './block.schema.js';

const DOMAIN_NAMES: Record<string, [de: string, en: string]> = {
  AUTH: ['Authentisierung und Identitäten', 'Authentication and identities'],
  CRYP: ['Kryptografie', 'Cryptography'],
  NET: ['Netzwerksicherheit', 'Network security'],
  LOG: ['Protokollierung und Überwachung', 'Logging and monitoring'],
  DATA: ['Datenschutz und Datensicherheit', 'Data protection and data security'],
  ACC: ['Zugriffssteuerung', 'Access control'],
  INC: ['Umgang mit Sicherheitsvorfällen', 'Incident handling'],
  BCM: ['Notfallmanagement', 'Business continuity'],
  SUP: ['Lieferkette und Dienstleister', 'Supply chain and suppliers'],
  HR: ['Personal und Sensibilisierung', 'People and awareness'],
  PHY: ['Physische Sicherheit', 'Physical security'],
  DEV: ['Sichere Entwicklung', 'Secure development'],
  AI: ['Künstliche Intelligenz', 'Artificial intelligence'],
};

export const domainName = (domain: string, language: 'de' | 'en' = 'de'): string =>
  DOMAIN_NAMES[domain]?.[language === 'de' ? 0 : 1] ?? domain;

/** The block's filters in the form the control catalogue takes. */
export function blockFilter(
  b: Pick<Block, 'domain_filter' | 'category_filter' | 'severity_filter' | 'target_audience_filter'>,
): ControlFilter {
  const split = (s: string | null | undefined) =>
    s
      ? s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : undefined;
  return {
    domain: split(b.domain_filter),
    category: split(b.category_filter),
    severity: split(b.severity_filter) as ControlFilter['severity'],
    target_audience: b.target_audience_filter ? [b.target_audience_filter] : undefined,
  };
}

/**
 * Groups controls into modules: by domain (so a module stays on one subject), then in id order, at most
 * `max_controls_per_module` per module. Codes are the prefix plus a three-digit sequence, stable for the same input,
 * so generating again finds and updates the same modules.
 */
export function planModules(block: Block, controls: CanonicalControl[]): PlannedModule[] {
  const byDomain = new Map<string, CanonicalControl[]>();
  for (const c of [...controls].sort(byControlId)) {
    const list = byDomain.get(c.domain) ?? [];
    list.push(c);
    byDomain.set(c.domain, list);
  }
  const plan: PlannedModule[] = [];
  const max = block.max_controls_per_module;
  for (const [domain, list] of [...byDomain.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const parts = Math.ceil(list.length / max);
    for (let p = 0; p < parts; p++) {
      const chunk = list.slice(p * max, (p + 1) * max);
      const seq = String(plan.length + 1).padStart(3, '0');
      const suffix = parts > 1 ? ` (${p + 1}/${parts})` : '';
      plan.push({
        module_code: `${block.module_code_prefix}-${seq}`,
        title: `${block.name}: ${domainName(domain)}${suffix}`,
        description:
          `${block.description ? block.description + ' ' : ''}Sicherheitsmaßnahmen: ${chunk.map((c) => c.title).join('; ')}.`.slice(
            0,
            2000,
          ),
        domain,
        control_ids: chunk.map((c) => c.id),
      });
    }
  }
  return plan;
}

/** Roles R1–R10 that a block's modules suit, from its target audience and the domains it covers. */
export function rolesFor(
  block: Pick<Block, 'target_audience_filter' | 'regulation_area'>,
  domains: string[],
): string[] {
  const roles = new Set<string>();
  switch (block.target_audience_filter) {
    case 'authority':
      ['R10', 'R4'].forEach((r) => roles.add(r));
      break;
    case 'provider':
      ['R2', 'R4', 'R8'].forEach((r) => roles.add(r));
      break;
    case 'enterprise':
      ['R1', 'R2', 'R4', 'R8'].forEach((r) => roles.add(r));
      break;
    default:
      ['R4', 'R9'].forEach((r) => roles.add(r));
  }
  const byDomain: Record<string, string[]> = {
    AUTH: ['R8'],
    CRYP: ['R8'],
    NET: ['R8'],
    LOG: ['R8'],
    ACC: ['R2', 'R8'],
    DEV: ['R7', 'R8'],
    DATA: ['R3'],
    INC: ['R2', 'R4'],
    BCM: ['R1', 'R2'],
    SUP: ['R6'],
    HR: ['R5', 'R9'],
    PHY: ['R9'],
    AI: ['R3', 'R7'],
  };
  for (const d of domains) (byDomain[d] ?? []).forEach((r) => roles.add(r));
  if (block.regulation_area === 'dsgvo') roles.add('R3');
  if (block.regulation_area === 'nis2') roles.add('R1'); // NIS2 Art. 20: management must be trained
  return [...roles].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}
