/**
 * One opened document kept between the extractors of a thread (a warm function's next page batch of the
 * same file): the file's checks, its parsing and the fonts its pages share are paid once per thread, not
 * once per batch. Only one is kept; it is freed after a minute unused or when another file is opened.
 */
import type { ExtractionLimits } from '../limits.ts';
import { contentDigest, type OpenedPdf, openPdf } from './pdf.ts';

interface KeptDocument {
  key: string;
  opened: OpenedPdf;
  /** Extractors using it now (it is never freed under one). */
  users: number;
  idleTimer?: NodeJS.Timeout;
}

export interface WarmDocument {
  opened: OpenedPdf;
  /** Done with it: the kept document stays open for the next extractor; another one is freed. */
  release(): Promise<void>;
}

const IDLE_MS = 60_000;
let kept: KeptDocument | null = null;

const free = async (document: KeptDocument): Promise<void> => {
  clearTimeout(document.idleTimer);
  if (kept === document) kept = null;
  await document.opened.close();
};

/** The kept document when it is this file's, otherwise the file opened (and kept when the place is free). */
export const openWarmDocument = async (
  bytes: Uint8Array,
  limits: ExtractionLimits,
): Promise<WarmDocument> => {
  // The same bytes under the same limits are the same document; the digest also keys the byte checks.
  const digest = contentDigest(bytes);
  const key = `${digest} ${JSON.stringify(limits)}`;
  if (kept?.key === key) {
    const document = kept;
    clearTimeout(document.idleTimer);
    document.users++;
    return { opened: document.opened, release: () => releaseKept(document) };
  }
  if (kept && kept.users === 0) await free(kept);
  const opened = await openPdf(bytes, limits, { digest });
  if (kept) return { opened, release: () => opened.close() };
  const document: KeptDocument = { key, opened, users: 1 };
  kept = document;
  return { opened, release: () => releaseKept(document) };
};

const releaseKept = async (document: KeptDocument): Promise<void> => {
  document.users--;
  if (document.users > 0) return;
  document.idleTimer = setTimeout(() => void free(document), IDLE_MS);
  document.idleTimer.unref();
};

/** Frees the kept document now (tests; a thread about to end). */
export const freeWarmDocument = async (): Promise<void> => {
  if (kept && kept.users === 0) await free(kept);
};
