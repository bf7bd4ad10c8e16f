import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver ships no types; what is used of it is typed here
import S3rverModule from 's3rver';
import { freePort } from './ports.js';

interface S3rverServer {
  run(): Promise<unknown>;
  close(): Promise<void>;
}
const S3rver = S3rverModule as unknown as new (o: Record<string, unknown>) => S3rverServer;

/** s3rver's own credentials, which the SDK's default chain reads from the environment. */
export const S3_ENV = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

/**
 * An S3 protocol server (s3rver) on 127.0.0.1, a free port and a temporary folder, with the bucket `media`; `stop`
 * and `start` take it away and bring it back on the same port with the same objects (the object store down).
 */
export async function startS3(bucket = 'media') {
  const dir = mkdtempSync(join(tmpdir(), 'compliance-s3-'));
  const port = await freePort();
  let server: S3rverServer | undefined;
  Object.assign(process.env, S3_ENV);
  const s3 = {
    dir,
    port,
    endpoint: `http://127.0.0.1:${port}`,
    /** The media URL of the bucket, under `prefix`. */
    url: (prefix = '', extra = '') =>
      `s3://${bucket}${prefix ? `/${prefix}` : ''}?endpoint=http://127.0.0.1:${port}&region=us-east-1&path_style=true${extra}`,
    async start() {
      server = new S3rver({
        port,
        address: '127.0.0.1',
        directory: dir,
        silent: true,
        configureBuckets: [{ name: bucket }],
      });
      await server.run();
    },
    async stop() {
      await server?.close();
      server = undefined;
    },
    async close() {
      await s3.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await s3.start();
  return s3;
}
export type S3Server = Awaited<ReturnType<typeof startS3>>;
