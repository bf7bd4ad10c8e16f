/** An own canonical control as an import file holds it, with `over` replacing fields. */
export const control = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  title: `Control ${id}`,
  objective: 'Keep things safe.',
  domain: id.split('-')[0],
  category: 'own_rules',
  severity: 'high',
  target_audience: 'enterprise',
  references: { iso27001: ['A.5.1'], nis2: [], bsi: [], nist: [] },
  ...over,
});
