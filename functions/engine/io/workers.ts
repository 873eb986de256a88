/**
 * Page extraction over worker threads: each worker opens the PDF once and works through its own contiguous
 * share of the pages in small batches (neighbouring pages share fonts, which every worker must otherwise
 * parse for itself); a worker that finishes its share takes batches from the back of the largest share left,
 * so both cores stay busy to the end. No worker holds more than one page's renders. A worker that exceeds
 * its time budget or memory cap is terminated; its batch is reported as failed pages and a fresh worker
 * continues with the rest.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ExtractionError } from '../errors.ts';
import type { ExtractionLimits } from '../limits.ts';
import type { ExtractionErrorCode } from '../model.ts';
import { failedPage, type OcrMode, type PageResult } from '../pages/page.ts';
import type { WorkerStart } from './worker-entry.ts';

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

/** Loader-related flags a worker accepts and needs; process-wide and V8 flags already apply to it. */
const WORKER_FLAGS_WITH_VALUE = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--conditions',
  '-C',
]);
const WORKER_FLAGS = new Set(['--enable-source-maps']);

/**
 * Worker arguments, or undefined to inherit the parent's. Under TypeScript sources, Node's own type
 * stripping (Node >= 22.18) loads the worker: a loader such as tsx costs ~0.8 s of module transforms per
 * thread (pdf.js is 3 MB of JavaScript) and slows pdf.js itself, so it is dropped, and tsx is added only
 * where Node cannot strip types. An explicit list keeps only loader flags: Node refuses process-wide
 * flags (`--v8-pool-size`, V8 options) in a worker's execArgv, while it applies them to workers anyway.
 */
const workerExecArgv = (): string[] | undefined => {
  const nativeTs = Boolean((process.features as { typescript?: unknown }).typescript);
  const fromTs = import.meta.url.endsWith('.ts');
  const inherited = process.execArgv;
  const hasTsx = inherited.some((arg) => arg.includes('tsx'));
  if (!fromTs || (hasTsx && !nativeTs) || (!hasTsx && nativeTs)) return undefined;
  const argv: string[] = [];
  for (let i = 0; i < inherited.length; i++) {
    const arg = inherited[i] ?? '';
    const [name = '', inlineValue] = arg.split(/=(.*)/s, 2);
    if (WORKER_FLAGS_WITH_VALUE.has(name)) {
      const value = inlineValue ?? inherited[++i] ?? '';
      if (!value.includes('tsx')) argv.push(name, value);
    } else if (WORKER_FLAGS.has(name)) {
      argv.push(arg);
    }
  }
  if (!nativeTs) argv.push('--import', 'tsx');
  return argv;
};

interface Slot {
  worker: Worker;
  ready: Promise<number>;
}

/**
 * Young generation per worker (MB). pdf.js allocates many short-lived arrays per glyph; V8's default
 * semi-spaces for a worker are small: the text of the 775-page 1243I book took 4.3 s in one worker with a
 * 16 MB young generation and 3.75 s with 64 MB (one run each; larger sizes measured no better).
 */
const WORKER_YOUNG_GENERATION_MB = 64;

/** `start`: see worker-entry.ts (one worker per file runs the byte checks, the others wait for them). */
const startWorker = (bytes: Uint8Array, options: PoolOptions, ocrPages: number, start: WorkerStart): Slot => {
  const worker = new Worker(entryUrl(), {
    workerData: { bytes, limits: options.limits, ocr: options.ocr, ocrPages, start },
    execArgv: workerExecArgv(),
    resourceLimits: {
      maxOldGenerationSizeMb: options.maxWorkerHeapMb,
      maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
    },
  });
  const ready = new Promise<number>((resolve, reject) => {
    const onMessage = (message: {
      type: string;
      pageCount?: number;
      code?: ExtractionErrorCode;
      message?: string;
    }) => {
      if (message.type === 'ready') resolve(message.pageCount ?? 0);
      else if (message.type === 'error')
        reject(new ExtractionError(message.code ?? 'pdf_malformed', message.message ?? 'worker failed'));
      else return;
      worker.off('message', onMessage);
    };
    worker.on('message', onMessage);
    // A worker that dies while opening the file (heap cap, crash) fails the file with a code, never a hang.
    worker.once('error', (error) => {
      const oom = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      reject(
        new ExtractionError(
          oom ? 'resource_limit' : 'pdf_malformed',
          `Opening the PDF failed: ${error.message}`,
        ),
      );
    });
    worker.once('exit', (code) =>
      reject(new ExtractionError('resource_limit', `The worker opening the PDF exited (${code}).`)),
    );
  });
  return { worker, ready };
};

/** Pages `next..end` still to do in one worker's share. */
interface Share {
  next: number;
  end: number;
}

/** Splits pages `from..to` into `count` contiguous shares of (nearly) equal length. */
export const splitShares = (from: number, to: number, count: number): Share[] => {
  const total = to - from + 1;
  return Array.from({ length: count }, (_, index) => ({
    next: from + Math.floor((total * index) / count),
    end: from + Math.floor((total * (index + 1)) / count) - 1,
  }));
};

/**
 * The next batch for worker `index`: the front of its own share, else the back of the share with the most
 * pages left (so the owner keeps its contiguous run), else null when every page has been handed out.
 */
export const nextBatch = (shares: Share[], index: number, size: number): [number, number] | null => {
  const own = shares[index];
  if (own && own.next <= own.end) {
    const first = own.next;
    const last = Math.min(own.end, first + size - 1);
    own.next = last + 1;
    return [first, last];
  }
  let victim: Share | undefined;
  for (const share of shares) {
    if (share.next > share.end) continue;
    if (!victim || share.end - share.next > victim.end - victim.next) victim = share;
  }
  if (!victim) return null;
  const last = victim.end;
  const first = Math.max(victim.next, last - size + 1);
  victim.end = first - 1;
  return [first, last];
};

const runBatch = (slot: Slot, from: number, to: number, timeoutMs: number): Promise<PageResult[]> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new ExtractionError('page_timeout', `Pages ${from}-${to} took more than ${timeoutMs} ms.`));
    }, timeoutMs);
    const onMessage = (message: { type: string; pages?: PageResult[] }) => {
      if (message.type !== 'pages') return;
      cleanup();
      resolve(message.pages ?? []);
    };
    const onError = (error: Error) => {
      cleanup();
      const oom = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      reject(
        new ExtractionError(
          oom ? 'resource_limit' : 'pdf_malformed',
          `Pages ${from}-${to}: ${error.message}`,
        ),
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
 * Extracts pages (default all) on `options.workers` threads; results in page order. All workers start at
 * once (each parses the file for itself, so starting them one after another would add one start per
 * worker to the wall time); the first runs the byte checks while the others load the engine, and any
 * worker's error before it is ready (malformed, encrypted, bomb, ...) stops them all. This thread never
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
  // With an explicit range the number of batches is known up front: no idle workers for short ranges.
  const knownPages = range?.from !== undefined && range.to !== undefined ? range.to - range.from + 1 : null;
  const count = Math.max(
    1,
    Math.min(
      options.workers,
      knownPages && knownPages > 0 ? Math.ceil(knownPages / options.batchSize) : Infinity,
    ),
  );
  const slots = Array.from({ length: count }, (_, index) =>
    startWorker(shared, options, ocrPerWorker, index === 0 ? 'check' : 'wait'),
  );
  // The others load the engine meanwhile and open the file once the first has checked its bytes.
  const [first] = slots;
  if (!first) throw new ExtractionError('resource_limit', 'No extraction worker could be started.');
  const checker = first.worker;
  const onChecked = (message: { type: string }) => {
    if (message.type !== 'checked') return;
    checker.off('message', onChecked);
    for (const slot of slots.slice(1)) slot.worker.postMessage({ type: 'go' });
  };
  checker.on('message', onChecked);
  let pageCount: number;
  try {
    pageCount = Math.max(...(await Promise.all(slots.map((slot) => slot.ready))));
  } catch (error) {
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
    throw error;
  }
  const from = range?.from ?? 1;
  const to = Math.min(range?.to ?? pageCount, pageCount);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || from > pageCount || to < from) {
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
    throw new ExtractionError(
      'invalid_page_range',
      `Invalid page range ${from}-${to} for ${pageCount} pages.`,
    );
  }
  const shares = splitShares(from, to, slots.length);
  const results: PageResult[] = [];
  const started = Date.now();
  const lane = async (initial: Slot, index: number): Promise<void> => {
    let slot = initial;
    try {
      for (
        let next = nextBatch(shares, index, options.batchSize);
        next;
        next = nextBatch(shares, index, options.batchSize)
      ) {
        if (Date.now() - started > options.limits.fileTimeoutMs) {
          throw new ExtractionError(
            'file_timeout',
            `The file took more than ${options.limits.fileTimeoutMs} ms.`,
          );
        }
        const [first, last] = next;
        // OCR pages can take several page budgets; the worker's own per-page caps normally fire first.
        const budget =
          (last - first + 1) * (options.limits.pageTimeoutMs + options.limits.ocrPageTimeoutMs) + 5_000;
        try {
          results.push(...(await runBatch(slot, first, last, budget)));
        } catch (error) {
          if (!(error instanceof ExtractionError) || error.code === 'file_timeout') throw error;
          for (let pageNumber = first; pageNumber <= last; pageNumber++) {
            const issue = { pageNumber, code: error.code, message: error.message };
            results.push(failedPage(pageNumber, { width: 612, height: 792, rotation: 0 }, issue));
          }
          await slot.worker.terminate();
          slot = startWorker(shared, options, ocrPerWorker, 'open');
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
  await Promise.all(slots.map((slot, index) => lane(slot, index)));
  return { pageCount, pages: results.sort((a, b) => a.pageNumber - b.pageNumber) };
};
