import type { Media } from './media.schema.js';

/** The module a medium is made for: what the media service reads of it. */
export interface MediaModule {
  id: string;
  module_code: string;
  title: string;
}

/** The published content a medium speaks or films. */
export interface MediaContent {
  id: string;
  markdown: string;
  language: string;
}

/** Persistence of media records (not their bytes: see MediaObjectStore), always scoped to one tenant. */
export interface TrainingMediaStore {
  module(tenant: string, moduleId: string): Promise<MediaModule | undefined>;
  publishedContent(moduleId: string): Promise<MediaContent | undefined>;
  insert(tenant: string, media: Media): Promise<void>;
  list(tenant: string, moduleId: string): Promise<Media[]>;
  get(tenant: string, id: string): Promise<Media | undefined>;
  setStatus(tenant: string, id: string, status: Media['status'], publishedAt: string | null): Promise<void>;
  /** The key that signs media URLs, shared by every replica of the store; made by `generate` on first use. */
  urlKey(generate: () => string): Promise<string>;
}
