/**
 * Worker thread: opens the PDF once, then processes the page ranges the parent sends, one at a time.
 * Messages in: { type: 'range', from, to }, { type: 'close' }. Out: { type: 'ready', pageCount },
 * { type: 'pages', pages }, { type: 'error', code, message }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isExtractionError } from './errors.ts';
import { resolveLimits } from './limits.ts';
import { terminateOcr } from './ocr.ts';
import { type OcrMode, processPage } from './page.ts';
import { openPdf } from './pdf.ts';

interface WorkerInput {
  bytes: Uint8Array;
  limits: ReturnType<typeof resolveLimits>;
  ocr: OcrMode;
  ocrPages: number;
  /** Run the byte checks (size, header, decompression bombs); the pool asks one worker per file. */
  preflight: boolean;
}

const port = parentPort;
if (!port) throw new Error('worker-entry.ts must run in a worker thread');
const input = workerData as WorkerInput;

const main = async (): Promise<void> => {
  const limits = resolveLimits(input.limits);
  let opened: Awaited<ReturnType<typeof openPdf>>;
  try {
    opened = await openPdf(input.bytes, limits, { preflight: input.preflight });
  } catch (error) {
    port.postMessage({
      type: 'error',
      code: isExtractionError(error) ? error.code : 'pdf_malformed',
      message: (error as Error).message,
    });
    return;
  }
  const { doc, pdfjs, pageCount } = opened;
  const ocrBudget = { pagesLeft: input.ocrPages };
  port.postMessage({ type: 'ready', pageCount });
  port.on('message', async (message: { type: 'range'; from: number; to: number } | { type: 'close' }) => {
    if (message.type === 'close') {
      await doc.destroy().catch(() => undefined);
      await terminateOcr();
      port.close();
      return;
    }
    const pages = [];
    for (let p = message.from; p <= message.to; p++) {
      pages.push(await processPage(doc, pdfjs, p, { limits, ocr: input.ocr, ocrBudget }));
    }
    port.postMessage({ type: 'pages', pages });
  });
};

void main();
