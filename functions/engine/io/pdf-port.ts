/**
 * The channel between pdf.js's API and its parser, both in this thread. pdf.js's own channel for this case
 * (`LoopbackPort`, its "fake worker") hands every message over as a structured clone. The operator-list chunks
 * of a vector sheet are most of what it hands over (the arguments of hundreds of thousands of drawing
 * operators), and cloning them took 0.87 s of the 22 s of CPU that ten outlined 2977J sheets cost with OCR (a
 * CPU profile of `bench/extraction-speed/child.ts`). This channel hands them over as they are; every other
 * message is cloned as before.
 *
 * Why that is safe: the parser never touches a chunk's operators again once it sent them. Right after sending,
 * it empties the two arrays it sent (`OperatorList.flush`), so those two are copied (a copy of the array, not
 * of its operators); the arguments of each operator are fresh arrays, or cached ones (an image, a pattern)
 * that the parser sends again as they are, never changes.
 */
import type { TransferListItem } from 'node:worker_threads';
import type { PdfJs } from './pdf.ts';

type Listener = (this: SameThreadPort, event: { data: unknown }) => void;

interface OperatorListChunk {
  fnArray: unknown[];
  argsArray: unknown[];
}

/** An operator-list chunk message with its two arrays copied, or undefined for any other message. */
const chunkWithOwnArrays = (message: unknown): unknown => {
  const chunk = (message as { chunk?: Partial<OperatorListChunk> } | null)?.chunk;
  if (!chunk || !Array.isArray(chunk.fnArray) || !Array.isArray(chunk.argsArray)) return undefined;
  return {
    ...(message as object),
    chunk: { ...chunk, fnArray: chunk.fnArray.slice(), argsArray: chunk.argsArray.slice() },
  };
};

/** pdf.js's `LoopbackPort` (same contract: listeners called on a later microtask) without the chunks' clone. */
export class SameThreadPort {
  #listeners = new Map<Listener, (() => void) | null>();
  #deferred = Promise.resolve();

  postMessage(message: unknown, transfer?: TransferListItem[]): void {
    const data = chunkWithOwnArrays(message) ?? structuredClone(message, transfer ? { transfer } : undefined);
    const event = { data };
    void this.#deferred.then(() => {
      for (const [listener] of this.#listeners) listener.call(this, event);
    });
  }

  addEventListener(_name: 'message', listener: Listener, options?: { signal?: AbortSignal }): void {
    let removeAbort: (() => void) | null = null;
    const signal = options?.signal;
    if (signal) {
      if (signal.aborted) return;
      const onAbort = () => this.removeEventListener('message', listener);
      removeAbort = () => signal.removeEventListener('abort', onAbort);
      signal.addEventListener('abort', onAbort);
    }
    this.#listeners.set(listener, removeAbort);
  }

  removeEventListener(_name: 'message', listener: Listener): void {
    this.#listeners.get(listener)?.();
    this.#listeners.delete(listener);
  }

  terminate(): void {
    for (const [, removeAbort] of this.#listeners) removeAbort?.();
    this.#listeners.clear();
  }
}

/**
 * A pdf.js worker for one document, its parser in this thread behind a SameThreadPort. pdf.js does not end a
 * worker it was given: the caller ends it once the document is destroyed (`worker.destroy()`).
 */
export const sameThreadWorker = async (
  pdfjs: PdfJs,
  /** pdf.js's log level for the parser (the document's `verbosity`; a worker made by pdf.js gets it too). */
  verbosity: number,
): Promise<InstanceType<PdfJs['PDFWorker']>> => {
  const { WorkerMessageHandler } = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  const port = new SameThreadPort();
  WorkerMessageHandler.initializeFromPort(port);
  // pdf.js types the port as a DOM Worker; it uses only postMessage and the listener methods.
  return new pdfjs.PDFWorker({ port: port as never, verbosity });
};
