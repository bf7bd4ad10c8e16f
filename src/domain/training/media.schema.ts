import * as z from 'zod';

export const Media = z.object({
  id: z.string(),
  module_id: z.string(),
  content_id: z.string().nullable(),
  kind: z.enum(['audio', 'video']),
  bucket: z.string(),
  object_key: z.string(),
  content_type: z.string(),
  size_bytes: z.int(),
  duration_seconds: z.number(),
  status: z.enum(['draft', 'published', 'withdrawn']),
  created_at: z.string(),
  published_at: z.string().nullable(),
});
export type Media = z.infer<typeof Media>;
export const MediaUrl = z.object({
  id: z.string(),
  bucket: z.string(),
  object_key: z.string(),
  content_type: z.string(),
  size_bytes: z.int(),
  url: z.string(),
  expires_at: z.string(),
});
export const MediaPublish = z.object({ published: z.boolean().default(true) });
export const VideoScript = z.object({
  title: z.string(),
  sections: z.array(z.object({ heading: z.string(), text: z.string(), bullet_points: z.array(z.string()) })),
});
export const SignedQuery = z.object({ expires: z.string().max(20).default(''), sig: z.string().max(200).default('') });
