import type { ExtractionResult, PageResult, PdfInspection } from '../../engine/index.ts';
import type {
  DocumentRecord,
  FacetRecord,
  FileContext,
  RegionRecord,
  SheetRecord,
  SpecSectionRecord,
} from '../content/model.ts';
import type { RegionNormalizationStore } from '../content/ports.ts';
import type { JobStore } from '../jobs/ports.ts';
import type { OverviewCounts } from '../projects/model.ts';
import type { RevisionStore } from '../revisions/ports.ts';

export interface ObjectStore {
  getBytes(key: string): Promise<Uint8Array>;
  /**
   * The object's bytes read as they stream in, into one buffer of the expected size, with their
   * SHA-256 computed on the way: `size_mismatch` as soon as more (or, at the end, fewer) bytes come.
   */
  getVerifiedBytes(
    key: string,
    expected: { size: number },
  ): Promise<{ ok: true; bytes: Uint8Array; sha256: string } | { ok: false; reason: 'size_mismatch' }>;
  putBytes(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Writes once: a second write of the same key is refused and reported as false. */
  putImmutable(key: string, bytes: Uint8Array, contentType: string): Promise<boolean>;
  getJson<T>(key: string): Promise<T | null>;
  putJson(key: string, value: unknown): Promise<void>;
}

export interface FileContent {
  document: DocumentRecord;
  sheets: SheetRecord[];
  regions: RegionRecord[];
  sections: SpecSectionRecord[];
  facets: FacetRecord[];
}

/** What resolving references across a project's files reads and writes. */
export interface ReferenceStore
  extends Pick<RegionNormalizationStore, 'documents' | 'fileLayout' | 'saveNormalizedData'> {
  /** The file's regions that carry sheet references. */
  regionsWithReferences(projectId: string, fileId: string): Promise<RegionRecord[]>;
  /** Sets the sheet keys a document still waits for; a document deleted meanwhile stays deleted. */
  setUnresolvedSheetRefs(projectId: string, documentId: string, keys: string[]): Promise<void>;
}

export interface ContentStore extends ReferenceStore {
  /**
   * Replaces everything stored for one file (rows are keyed deterministically: a retry rewrites, never
   * duplicates). With `finalSections`, the other rows are written while it runs (the section PDFs being
   * stored), and the sections' rows it returns (the same sections, their PDFs' keys set) and the document
   * row after: a section row never points to a PDF not yet stored.
   */
  writeFileContent(
    projectId: string,
    fileId: string,
    content: FileContent,
    finalSections?: () => Promise<SpecSectionRecord[]>,
  ): Promise<void>;
  /** Storage keys of the artifacts of these files (for the immutable job result). */
  artifactKeysOfJob(
    projectId: string,
    fileIds: string[],
  ): Promise<{ type: 'region_crop' | 'specification_file'; key: string }[]>;
  /** Counts and disciplines of everything stored in the project. */
  projectTotals(projectId: string): Promise<{
    counts: OverviewCounts;
    /** Sources of every document, and of the indexed ones. */
    searchableSources: number;
    indexedSources: number;
    disciplines: { code: string; label: string; count: number }[];
  }>;
}

export interface CreditLedger {
  /** Moves `credits` from the balance into the job's reservation, once per job. */
  reserve(
    orgId: string,
    jobId: string,
    credits: number,
  ): Promise<{ ok: true } | { ok: false; available: number }>;
  /** Debits `debit` of the reservation and returns the rest to the balance, once per job. */
  settle(orgId: string, jobId: string, reserved: number, debit: number): Promise<void>;
}

export interface ProjectTotalsWriter {
  saveTotals(
    orgId: string,
    projectId: string,
    totals: Awaited<ReturnType<ContentStore['projectTotals']>>,
  ): Promise<void>;
}

export interface WebhookQueue {
  enqueue(message: { orgId: string; event: string; payload: unknown }): Promise<void>;
}

type Box = { left: number; top: number; right: number; bottom: number };

/** The extraction engine, and every other PDF operation of the pipeline (one adapter loads PDFs). */
/** A file opened by the extractor: its pages extracted range by range. */
export interface PageSession {
  readonly pageCount: number;
  extract(range: { from: number; to: number }): Promise<PageResult[]>;
  /** PNG crops of regions of its pages, rendered from the same open file (null where one cannot be). */
  regionCrops(regions: { pageNumber: number; box: Box }[]): Promise<(Uint8Array | null)[]>;
  close(): Promise<void>;
}

export interface Extractor {
  inspect(bytes: Uint8Array): Promise<PdfInspection>;
  extractPages(
    bytes: Uint8Array,
    options: {
      pages: { from: number; to: number };
      fileName: string;
      classification?: FileContext['classification'];
    },
  ): Promise<{ pageCount: number; pages: PageResult[] }>;
  /** The file opened once for several page ranges (close it when done). */
  openPages(
    bytes: Uint8Array,
    options: { fileName: string; classification?: FileContext['classification'] },
  ): Promise<PageSession>;
  assemble(
    pages: PageResult[],
    options: { pageCount: number; fileName: string; classification?: FileContext['classification'] },
  ): ExtractionResult;
  /** PNG crops of regions, in order (null where a region cannot be rendered). */
  regionCrops(bytes: Uint8Array, regions: { pageNumber: number; box: Box }[]): Promise<(Uint8Array | null)[]>;
  /**
   * One PDF per page range, in order, each as soon as it is cut (null where a range cannot be cut),
   * reading the source once; fails on the first read when the source cannot be loaded.
   */
  sectionPdfs(bytes: Uint8Array, ranges: { from: number; to: number }[]): AsyncIterable<Uint8Array | null>;
}

/** Structured logging (the Powertools logger on AWS and locally). */
export interface Log {
  info(message: string, attributes?: Record<string, unknown>): void;
  error(message: string, attributes?: Record<string, unknown>): void;
}

/** What the job's bookkeeping steps need (fail, finalize, expire, recover): no PDF engine. */
/** The uploaded files, read back (the uploads bucket is written only through signed URLs). */
export type UploadedFiles = Pick<ObjectStore, 'getBytes' | 'getVerifiedBytes'>;

export interface JobDeps {
  jobs: JobStore;
  uploads: UploadedFiles;
  artifacts: ObjectStore;
  content: ContentStore;
  credits: CreditLedger;
  totals: ProjectTotalsWriter;
  webhooks: WebhookQueue;
  log: Log;
}

/**
 * What the steps that read PDFs need: the job's adapters, the extraction engine, and the revision links
 * assembly records once a file's sheets are written.
 */
export interface PipelineDeps extends JobDeps {
  extractor: Extractor;
  revisions: RevisionStore;
}

export interface PipelineSettings {
  creditsPerPage: number;
  pagesPerBatch: number;
  /** Files with more pages fail alone with pdf_too_many_pages (the engine's `maxPages`). */
  maxPagesPerFile: number;
}
