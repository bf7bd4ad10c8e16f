/**
 * A tenant id: 1 to 200 characters without control characters (C0 and DEL). The same rule holds for the CLI's
 * `--tenant`, the `tenant_id` query parameter and the `X-Tenant-ID` header.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what a tenant id may not contain
export const TENANT_PATTERN = /^[^\u0000-\u001f\u007f]{1,200}$/;

export const TENANT_RULE = '1 to 200 characters without control characters';
