/** Rows of the training tables: booleans are integers, lists are JSON text. */
export interface TrainingTables {
  training_module: {
    id: string;
    tenant_id: string;
    module_code: string;
    title: string;
    /** The English title (migration 0023). */
    title_en?: string | null;
    description: string;
    regulation_area: string;
    frequency_type: string;
    duration_minutes: number;
    pass_threshold: number;
    validity_days: number;
    created_at: string;
    updated_at: string;
  };
  training_question: {
    id: string;
    tenant_id: string;
    module_id: string;
    position: number;
    question: string;
    options: string;
    correct_index: number;
    explanation: string;
  };
  training_content: {
    id: string;
    tenant_id: string;
    module_id: string;
    version: number;
    language: string;
    markdown: string;
    status: string;
    created_at: string;
    published_at: string | null;
  };
  training_matrix: {
    tenant_id: string;
    role_code: string;
    module_id: string;
    is_mandatory: number;
    priority: number;
    created_at: string;
  };
  training_assignment: {
    id: string;
    tenant_id: string;
    module_id: string;
    user_id: string;
    user_name: string;
    user_email: string;
    role_code: string | null;
    status: string;
    progress_percent: number;
    deadline: string;
    escalation_level: number;
    /** The team lead, who hears of level 2 escalations (migration 0022). */
    manager_email?: string | null;
    quiz_passed: number;
    certificate_id: string | null;
    started_at: string | null;
    completed_at: string | null;
    valid_until: string | null;
    created_at: string;
    updated_at: string;
  };
  training_quiz_attempt: {
    id: string;
    tenant_id: string;
    assignment_id: string;
    module_id: string;
    score: number;
    passed: number;
    correct_count: number;
    total_count: number;
    threshold: number;
    answers: string;
    duration_seconds: number | null;
    created_at: string;
  };
  training_certificate: {
    id: string;
    tenant_id: string;
    assignment_id: string;
    user_id: string;
    user_name: string;
    module_id: string;
    module_code: string;
    module_title: string;
    score: number;
    issued_at: string;
    valid_until: string;
    signature: string;
  };
  training_audit: {
    id: string;
    tenant_id: string;
    action: string;
    entity_type: string;
    entity_id: string;
    actor: string;
    details: string;
    created_at: string;
  };
  setting: { key: string; value: string };
}

/** Rows of training_media (migration 0005). */
export interface TrainingMediaTables {
  training_media: {
    id: string;
    tenant_id: string;
    module_id: string;
    content_id: string | null;
    kind: string;
    bucket: string;
    object_key: string;
    content_type: string;
    size_bytes: number;
    duration_seconds: number;
    status: string;
    created_at: string;
    published_at: string | null;
  };
}

/** Rows of the training-block tables (migration 0006). */
export interface TrainingBlockTables {
  training_block: {
    id: string;
    tenant_id: string;
    name: string;
    description: string;
    domain_filter: string | null;
    category_filter: string | null;
    severity_filter: string | null;
    target_audience_filter: string | null;
    regulation_area: string;
    module_code_prefix: string;
    frequency_type: string;
    duration_minutes: number;
    pass_threshold: number;
    max_controls_per_module: number;
    created_at: string;
    updated_at: string;
    last_generated_at: string | null;
  };
  training_block_control: { block_id: string; control_id: string; module_id: string; position: number };
}
