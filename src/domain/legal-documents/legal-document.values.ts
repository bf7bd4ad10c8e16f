// Allowed values, free of zod so command help can name them without loading schemas.
export const DOCUMENT_TYPES = ['privacy_policy', 'terms', 'cookie_policy', 'imprint', 'dpa'] as const;
export const DOCUMENT_STATUSES = ['draft', 'published'] as const;
export const VERSION_STATUSES = ['draft', 'review', 'approved', 'published', 'archived'] as const;
