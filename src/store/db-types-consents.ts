/** Rows of the consent, legal-document and cookie-banner tables. */
export interface ConsentTables {
  consent: {
    id: string;
    tenant_id: string;
    user_id: string;
    data_point_id: string;
    granted: number;
    granted_at: string;
    revoked_at: string | null;
    consent_version: string;
    source: string | null;
    ip_address: string | null;
    user_agent: string | null;
    created_at: string;
    /** The import run that created it (migration 0016); null when created through the API. */
    import_run_id: string | null;
    /** The texts a banner consent was given on (migration 0021); null otherwise. */
    banner_revision: string | null;
    policy_version_id: string | null;
    policy_content_hash: string | null;
  };
  consent_history: {
    id: string;
    tenant_id: string;
    consent_id: string;
    action: string;
    consent_version: string;
    ip_address: string | null;
    user_agent: string | null;
    source: string | null;
    created_at: string;
    /** The import run that wrote it (migration 0016). */
    import_run_id: string | null;
  };
  /** One bulk import (not a dry run), migration 0016; `options` is JSON text. */
  consent_import_run: {
    id: string;
    tenant_id: string;
    file_name: string | null;
    sha256: string | null;
    format: string;
    options: string;
    status: string;
    read: number;
    created: number;
    unchanged: number;
    revoked: number;
    renewed: number;
    rejected: number;
    created_by: string;
    started_at: string;
    finished_at: string | null;
    reverted_at: string | null;
    reverted_by: string | null;
  };
  /** PostgreSQL only (migration 0013): consents per group, kept by triggers, summed over random slots. */
  consent_tally: {
    tenant_id: string;
    data_point_id: string;
    granted: number;
    revoked: number;
    slot: number;
    n: number;
  };
  /** PostgreSQL only: the users with at least one consent, and how many a tenant has (summed over slots). */
  consent_user: { tenant_id: string; user_id: string };
  consent_user_tally: { tenant_id: string; slot: number; n: number };
  legal_document: {
    id: string;
    tenant_id: string;
    title: string;
    document_type: string;
    language: string;
    status: string;
    created_at: string;
    updated_at: string;
  };
  legal_document_version: {
    id: string;
    tenant_id: string;
    document_id: string;
    version_number: number;
    title: string;
    content: string;
    change_summary: string | null;
    status: string;
    created_by: string | null;
    approved_by: string | null;
    approved_at: string | null;
    comment: string | null;
    created_at: string;
    updated_at: string;
    published_at: string | null;
  };
  cookie_banner: { tenant_id: string; categories: string; config: string; updated_at: string };
}
