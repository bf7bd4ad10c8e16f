// The setup file of every test file (vitest.config.ts): vitest runs it before each file, also where files share a
// module graph, so the hook below belongs to each file. Its afterAll is registered first and so runs last.
import { afterAll } from 'vitest';
import { endOfFile } from './file-end.js';

afterAll(endOfFile);
