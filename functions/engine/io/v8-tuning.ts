/**
 * One V8 setting for pdf.js. Its evaluator walks a page's content stream in a loop closure named
 * `promiseBody`, one for the operator list and one for the text content, created anew for every page.
 * Under V8's top tier (TurboFan) that loop never settles: each page brings operators, object shapes and
 * calls its compiled code has not seen ("wrong map", "insufficient type feedback", "maps became
 * deprecated"), so it is thrown away and compiled again. On ten outlined 2977J sheets it was compiled 60
 * times, about 1.5 s of CPU on V8's compiler threads. Left to the mid tier (Maglev), the loops run about
 * as fast and cost none of that: see docs/extraction.md, seventh round.
 *
 * V8 flags are per process, for every thread. They are changed once, from the main thread, before pdf.js
 * runs: by the engine when it loads in a main thread (a Lambda function, the CLI, a bench), and by the
 * local stack before it starts its task threads. A worker thread never changes them: another thread may
 * be reading them.
 */

import v8 from 'node:v8';
import { isMainThread } from 'node:worker_threads';

const PDFJS_LOOPS_OFF_TURBOFAN = '--turbo-filter=-promiseBody';

let applied = false;

/** Keeps pdf.js's content-stream loops off TurboFan for the whole process (main thread only; once). */
export const tuneV8ForPdfJs = (): void => {
  if (applied || !isMainThread) return;
  v8.setFlagsFromString(PDFJS_LOOPS_OFF_TURBOFAN);
  applied = true;
};
