/** Rows of the events tables (migration 0022): webhooks and the e-mail outbox. Booleans are integers, lists JSON text. */
export interface EventTables {
  webhook_endpoint: {
    id: string;
    tenant_id: string;
    url: string;
    secret: string;
    events: string;
    allow_private: number;
    status: string;
    cursor_seq: number;
    failing_since: string | null;
    created_at: string;
    updated_at: string;
  };
  webhook_delivery: {
    id: string;
    tenant_id: string;
    endpoint_id: string;
    seq: number;
    event_type: string;
    payload: string;
    status: string;
    attempts: number;
    created_at: string;
    next_attempt_at: string;
    last_attempt_at: string | null;
    last_status: number | null;
    last_error: string | null;
    response_excerpt: string | null;
    delivered_at: string | null;
    claimed_by: string | null;
    claimed_until: string | null;
  };
  notification_outbox: {
    id: string;
    tenant_id: string;
    run_id: string;
    recipient: string;
    language: string;
    subject: string;
    body_text: string;
    body_html: string;
    status: string;
    attempts: number;
    created_at: string;
    next_attempt_at: string;
    sent_at: string | null;
    last_error: string | null;
    claimed_by: string | null;
    claimed_until: string | null;
  };
  notification_escalation_sent: {
    tenant_id: string;
    assignment_id: string;
    level: number;
    outbox_id: string;
    created_at: string;
  };
  notification_setting: {
    tenant_id: string;
    language: string;
    management_email: string | null;
    compliance_officer_email: string | null;
    /** The tenant's training portal, linked from e-mail (migration 0023). */
    base_url?: string | null;
    updated_at: string;
  };
  notification_template: {
    tenant_id: string;
    name: string;
    language: string;
    subject: string;
    body_text: string;
    body_html: string;
    updated_at: string;
  };
}
