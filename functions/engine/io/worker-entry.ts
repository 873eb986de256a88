/**
 * Worker thread: opens the PDF once, then processes the page ranges the parent sends, one at a time.
 * Messages in: { type: 'go' }, { type: 'range', from, to }, { type: 'close' }. Out: { type: 'checked' },
 * { type: 'ready', pageCount }, { type: 'pages', pages }, { type: 'error', code, message }.
 *
 * `start` says what happens before pdf.js sees the bytes: `check` runs the byte checks (size, header,
 * decompression bombs) and reports `checked`; `wait` loads the engine meanwhile and opens the file only
 * after the parent's `go` (sent once the checking worker passed); `open` opens at once (a replacement
 * worker, after the checks passed).
 */
import module from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { ExtractionLimits } from '../limits.ts';
import type { OcrMode } from '../pages/page.ts';

// Node's on-disk compile cache: pdf.js (3 MB) and the engine are compiled once per machine rather than once
// per worker start (1243I on two workers: 4.57–5.0 s with the cache, 4.76–5.12 s without, 3 runs each).
// Enabled before the engine is imported.
try {
  module.enableCompileCache?.();
} catch {
  // No writable temporary directory: modules compile as usual.
}

export type WorkerStart = 'check' | 'wait' | 'open';

interface WorkerInput {
  bytes: Uint8Array;
  limits: ExtractionLimits;
  ocr: OcrMode;
  ocrPages: number;
  start: WorkerStart;
}

const port = parentPort;
if (!port) throw new Error('worker-entry.ts must run in a worker thread');
const input = workerData as WorkerInput;

const nextMessage = (type: string): Promise<void> =>
  new Promise((resolve) => {
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      port.off('message', onMessage);
      resolve();
    };
    port.on('message', onMessage);
  });

const main = async (): Promise<void> => {
  const go = input.start === 'wait' ? nextMessage('go') : Promise.resolve();
  const [
    { isExtractionError },
    { resolveLimits },
    { terminateOcr },
    { processPage },
    { openPdf, preflight },
  ] = await Promise.all([
    import('../errors.ts'),
    import('../limits.ts'),
    import('./ocr.ts'),
    import('../pages/page.ts'),
    import('./pdf.ts'),
  ]);
  const limits = resolveLimits(input.limits);
  let opened: Awaited<ReturnType<typeof openPdf>>;
  try {
    if (input.start === 'check') {
      preflight(input.bytes, limits);
      port.postMessage({ type: 'checked' });
    }
    await go;
    opened = await openPdf(input.bytes, limits, { preflight: false });
  } catch (error) {
    port.postMessage({
      type: 'error',
      code: isExtractionError(error) ? error.code : 'pdf_malformed',
      message: (error as Error).message,
    });
    return;
  }
  const { pageCount } = opened;
  const ocrBudget = { pagesLeft: input.ocrPages };
  port.postMessage({ type: 'ready', pageCount });
  port.on('message', async (message: { type: 'range'; from: number; to: number } | { type: 'close' }) => {
    if (message.type === 'close') {
      await opened.close().catch(() => undefined);
      await terminateOcr();
      port.close();
      return;
    }
    const pages = [];
    for (let pageNumber = message.from; pageNumber <= message.to; pageNumber++) {
      pages.push(await processPage(opened, pageNumber, { limits, ocr: input.ocr, ocrBudget }));
    }
    port.postMessage({ type: 'pages', pages });
  });
};

void main();
