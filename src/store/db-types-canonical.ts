/** Rows of the canonical-control tables. */
export interface CanonicalTables {
  training_canonical_control: {
    tenant_id: string;
    id: string;
    title: string;
    objective: string;
    domain: string;
    category: string;
    severity: string;
    target_audience: string;
    references: string;
    updated_at: string;
  };
}
