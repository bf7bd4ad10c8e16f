/** The areas `tenants list` counts records of, each by its main record (zod-free: every write's journal reads it). */
export const TENANT_AREAS = [
  'dsfa',
  'consents',
  'legal_documents',
  'cookie_banner',
  'training_modules',
  'training_assignments',
] as const;
export type TenantArea = (typeof TENANT_AREAS)[number];
