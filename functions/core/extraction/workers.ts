/**
 * Page extraction over worker threads: each worker opens the PDF once and takes small page batches from a
 * shared queue, so both cores stay busy and no worker holds more than one page's renders. A worker that
 * exceeds its time budget or memory cap is terminated; its batch is reported as failed pages and a fresh
 * worker continues with the rest.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ExtractionError } from './errors.ts';
import type { ExtractionLimits } from './limits.ts';
import type { ExtractionErrorCode } from './model.ts';
import { failedPage, type OcrMode, type PageResult } from './page.ts';

export interface PoolOptions {
  workers: number;
  batchSize: number;
  limits: ExtractionLimits;
  ocr: OcrMode;
  /** Heap cap per worker (MB); exceeding it fails that worker's batch with `resource_limit`. */
  maxWorkerHeapMb: number;
}

export const defaultWorkerCount = (): number => Math.max(1, Math.min(availableParallelism(), 4));

const entryUrl = (): URL => {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './worker-entry.ts' : './worker-entry.js', here);
};

/** TypeScript workers need the tsx loader when the parent was not started through it (e.g. vitest). */
const workerExecArgv = (): string[] => {
  const argv = [...process.execArgv];
  if (import.meta.url.endsWith('.ts') && !argv.some((a) => a.includes('tsx'))) argv.push('--import', 'tsx');
  return argv;
};

interface Slot {
  worker: Worker;
  ready: Promise<number>;
}

const startWorker = (bytes: Uint8Array, options: PoolOptions, ocrPages: number): Slot => {
  const worker = new Worker(entryUrl(), {
    workerData: { bytes, limits: options.limits, ocr: options.ocr, ocrPages },
    execArgv: workerExecArgv(),
    resourceLimits: { maxOldGenerationSizeMb: options.maxWorkerHeapMb },
  });
  const ready = new Promise<number>((resolve, reject) => {
    const onMessage = (m: {
      type: string;
      pageCount?: number;
      code?: ExtractionErrorCode;
      message?: string;
    }) => {
      if (m.type === 'ready') resolve(m.pageCount ?? 0);
      else if (m.type === 'error')
        reject(new ExtractionError(m.code ?? 'pdf_malformed', m.message ?? 'worker failed'));
      else return;
      worker.off('message', onMessage);
    };
    worker.on('message', onMessage);
    worker.once('error', (e) => reject(e));
  });
  return { worker, ready };
};

const runBatch = (slot: Slot, from: number, to: number, timeoutMs: number): Promise<PageResult[]> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new ExtractionError('page_timeout', `Pages ${from}-${to} took more than ${timeoutMs} ms.`));
    }, timeoutMs);
    const onMessage = (m: { type: string; pages?: PageResult[] }) => {
      if (m.type !== 'pages') return;
      cleanup();
      resolve(m.pages ?? []);
    };
    const onError = (e: Error) => {
      cleanup();
      const oom = (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      reject(
        new ExtractionError(oom ? 'resource_limit' : 'pdf_malformed', `Pages ${from}-${to}: ${e.message}`),
      );
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new ExtractionError('resource_limit', `Worker for pages ${from}-${to} exited (${code}).`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      slot.worker.off('message', onMessage);
      slot.worker.off('error', onError);
      slot.worker.off('exit', onExit);
    };
    slot.worker.on('message', onMessage);
    slot.worker.once('error', onError);
    slot.worker.once('exit', onExit);
    slot.worker.postMessage({ type: 'range', from, to });
  });

/**
 * Extracts pages (default all) on `options.workers` threads; results in page order. The first worker opens
 * the file and reports its page count (or its error code) before the others start, so this thread never
 * loads pdf.js itself.
 */
export const extractPagesInWorkers = async (
  bytes: Uint8Array,
  range: { from?: number; to?: number } | undefined,
  options: PoolOptions,
): Promise<{ pageCount: number; pages: PageResult[] }> => {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  const ocrPerWorker = Math.ceil(options.limits.maxOcrPages / Math.max(1, options.workers));
  const first = startWorker(shared, options, ocrPerWorker);
  let pageCount: number;
  try {
    pageCount = await first.ready;
  } catch (error) {
    await first.worker.terminate();
    throw error;
  }
  const from = range?.from ?? 1;
  const to = Math.min(range?.to ?? pageCount, pageCount);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || from > pageCount || to < from) {
    await first.worker.terminate();
    throw new ExtractionError(
      'invalid_page_range',
      `Invalid page range ${from}-${to} for ${pageCount} pages.`,
    );
  }
  const queue: Array<[number, number]> = [];
  for (let p = from; p <= to; p += options.batchSize)
    queue.push([p, Math.min(to, p + options.batchSize - 1)]);
  const results: PageResult[] = [];
  const count = Math.max(1, Math.min(options.workers, queue.length));
  const started = Date.now();
  const lane = async (initial: Slot | null): Promise<void> => {
    let slot = initial ?? startWorker(shared, options, ocrPerWorker);
    await slot.ready;
    try {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (Date.now() - started > options.limits.fileTimeoutMs) {
          throw new ExtractionError(
            'file_timeout',
            `The file took more than ${options.limits.fileTimeoutMs} ms.`,
          );
        }
        const [a, b] = next;
        // OCR pages can take several page budgets; the worker's own per-page caps normally fire first.
        const budget = (b - a + 1) * (options.limits.pageTimeoutMs + options.limits.ocrPageTimeoutMs) + 5_000;
        try {
          results.push(...(await runBatch(slot, a, b, budget)));
        } catch (error) {
          if (!(error instanceof ExtractionError) || error.code === 'file_timeout') throw error;
          for (let p = a; p <= b; p++) {
            const issue = { pageNumber: p, code: error.code, message: error.message };
            results.push(failedPage(p, { width: 612, height: 792, rotation: 0 }, issue));
          }
          await slot.worker.terminate();
          slot = startWorker(shared, options, ocrPerWorker);
          await slot.ready;
        }
      }
    } finally {
      slot.worker.postMessage({ type: 'close' });
      const exited = new Promise((resolve) => slot.worker.once('exit', resolve));
      const timer = setTimeout(() => void slot.worker.terminate(), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  await Promise.all(Array.from({ length: count }, (_, i) => lane(i === 0 ? first : null)));
  return { pageCount, pages: results.sort((x, y) => x.pageNumber - y.pageNumber) };
};
