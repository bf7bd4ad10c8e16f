/**
 * What the program's bundle (dist/program.cjs) offers its loader (src/loader.ts): a command line to run, and the
 * worker threads the store starts.
 */
export { main } from './main.js';
export { startThread } from './store/worker-threads.js';
