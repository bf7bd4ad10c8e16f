import type { Backend } from '../../src/backend/backend.js';

/** A banner configuration for tests of the website banner and its receipts. */
export const bannerConfig = (
  overrides: { style?: string; position?: string; primaryColor?: string; title?: string; privacyLink?: string } = {},
) => ({
  categories: [
    { id: 'necessary', name: 'Notwendig', isRequired: true, defaultEnabled: true },
    { id: 'analytics', name: 'Statistik', isRequired: false, defaultEnabled: false },
    { id: 'marketing', name: 'Marketing', isRequired: false, defaultEnabled: false },
  ],
  config: {
    position: overrides.position ?? 'bottom',
    style: overrides.style ?? 'bar',
    primaryColor: overrides.primaryColor ?? '#0b5cab',
    showDeclineAll: true,
    showSettings: true,
    banner_texts: {
      title: overrides.title ?? 'Wir respektieren Ihre Privatsphäre',
      description: 'Statistik- und Marketing-Cookies setzen wir nur mit Ihrer Einwilligung.',
      privacyLink: overrides.privacyLink ?? '/datenschutz',
    },
  },
});

/** Creates (or adds a version to) the tenant's privacy policy and publishes it; the published version. */
export async function publishPolicy(
  backend: Backend,
  tenant: string,
  content: string,
  documentId?: string,
): Promise<{ document_id: string; version_id: string }> {
  const T = { tenant, actor: 'dpo' };
  const api = backend.legalDocuments;
  const id =
    documentId ??
    (await api.create({ ...T, body: { title: 'Datenschutzerklärung', document_type: 'privacy_policy' } })).id;
  const v = await api.addVersion({ ...T, params: { id }, body: { title: 'Datenschutzerklärung', content } });
  await api.submit({ ...T, params: { id: v.id }, body: {} });
  await api.approve({ ...T, params: { id: v.id }, body: {} });
  await api.publish({ ...T, params: { id: v.id }, body: {} });
  return { document_id: id, version_id: v.id };
}
