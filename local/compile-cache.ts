import module from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from './lambda.ts';

const CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'node-compile-cache');

/**
 * Node's on-disk compile cache (`module.enableCompileCache`) for the thread that calls it: the modules it
 * loads afterwards, pdf.js above all, are compiled from V8's cached code instead of from source. Every
 * task thread and every `npm start` or test run loads the engine anew; with the cache an import of the
 * extraction handler took 330-360 ms of CPU instead of 610-670 ms. Kept under node_modules/.cache, so a
 * new install starts empty; Node checks each entry against its source. Local only: a Lambda starts with
 * an empty /tmp.
 */
export function enableCompileCache(): void {
  module.enableCompileCache?.(CACHE_DIR);
}
