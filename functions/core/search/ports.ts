import type { EntityType, Passage } from './sources.ts';

/** A passage as the index stores it: analyzed tokens and the embedding beside the text. */
export interface IndexedPassage extends Passage {
  /** The sheet number in the analyzer's canonical form, for the sheetNumber filter. */
  sheetKey: string;
  headTokens: string;
  bodyTokens: string;
  vector: number[];
}

/** What every index records of how it was built; an index refuses passages built another way. */
export interface IndexBuild {
  embedder: string;
  dimension: number;
  analyzer: string;
}

export interface SearchFilter {
  entityTypes?: EntityType[];
  regionType?: string;
  layoutType?: string;
  drawingType?: string;
  /** Canonical sheet number (the analyzer's identifier form). */
  sheetKey?: string;
  /** Lower-cased substring of the file name. */
  fileName?: string;
  pageNumber?: number;
  classification?: string;
  /** Only these files (a review's scope, or the files of ready documents). */
  fileIds?: string[];
  /** Only these sources (the sources a review has read). */
  sourceUris?: string[];
}

/** The sources a review has read, for `reviewId` in a search; null when the project has no such review. */
export interface ReviewSourceLookup {
  reviewSources(orgId: string, projectId: string, reviewId: string): Promise<string[] | null>;
}

/** What a search hit carries of its passage: what the response shows, not the filter columns. */
export type HitPassage = Pick<
  Passage,
  | 'passageId'
  | 'sourceUri'
  | 'entityType'
  | 'sourceId'
  | 'label'
  | 'documentId'
  | 'fileId'
  | 'fileName'
  | 'pageNumber'
  | 'pageEnd'
  | 'sheetNumber'
  | 'box'
  | 'head'
  | 'text'
>;

export interface IndexHit {
  passage: HitPassage;
  /** Engine score: BM25 for lexical hits, cosine similarity (1 - distance) for vector hits. */
  score: number;
}

/**
 * One index per project, at the location made at provisioning. Writes for one project must be
 * serialized by the caller (see IndexLock).
 */
/** A BM25 query: the analyzed query's terms and phrases, its expansion, an optional heading filter. */
export interface LexicalQuery {
  terms: string[];
  phrases: string[][];
  expansion?: string[];
  /**
   * Phrases that count once more where they stand (stems in order) and are not required: the trade
   * terms of several words of the expansion, and pairs of the query's consecutive words.
   */
  optionalPhrases?: string[][];
  expansionWeight?: number;
  inHead?: string[];
}

export interface SourceIndex {
  /** Replaces every passage of one file (a retry rewrites, never duplicates). */
  replaceFile(location: string, build: IndexBuild, fileId: string, passages: IndexedPassage[]): Promise<void>;
  removeFile(location: string, fileId: string): Promise<void>;
  /** Drops every passage and the build record: the next write starts a new index with its own build. */
  reset(location: string): Promise<void>;
  /**
   * BM25 over the query's terms (quoted phrases must match); `expansion` terms count at
   * `expansionWeight` (to the nearest 1/n, or whole number from 1: the engine weighs terms by
   * writing them again); with `inHead`, only passages whose heading carries one of those tokens.
   */
  lexical(location: string, query: LexicalQuery, filter: SearchFilter, limit: number): Promise<IndexHit[]>;
  nearest(location: string, vector: number[], filter: SearchFilter, limit: number): Promise<IndexHit[]>;
  /** Every passage of one source, in order (empty when the index has none). */
  passagesOf(location: string, sourceUri: string): Promise<Passage[]>;
  /** Passages per file, and how the index was built (null when nothing was ever written). */
  inventory(
    location: string,
  ): Promise<{ build: IndexBuild | null; files: Map<string, { passages: number }> }>;
  /** Total passages in the index. */
  size(location: string): Promise<number>;
}

export interface Embedder {
  /** Model id and dimension, recorded in every index built with it. */
  readonly id: string;
  readonly dimension: number;
  embed(texts: string[], purpose: 'passage' | 'query'): Promise<number[][]>;
}

/** A reranker: the relevance of each document to the query, by the documents' indexes. */
export interface Reranker {
  rerank(query: string, documents: string[]): Promise<{ index: number; score: number }[]>;
}

/** One writer per project index at a time, across every process (a lease that expires). */
export interface IndexLock {
  acquire(projectId: string, holder: string, leaseMs: number): Promise<boolean>;
  release(projectId: string, holder: string): Promise<void>;
}

/** The search index state of each document, kept on its row. */
export interface SearchIndexStateStore {
  setSearchIndexState(
    projectId: string,
    documentId: string,
    state: import('../content/model.ts').SearchIndexState,
  ): Promise<void>;
  /** Every document of the project with its index state (documents per project are few). */
  documentIndexStates(projectId: string): Promise<
    {
      documentId: string;
      fileId: string;
      fileName: string;
      jobId: string;
      state: import('../content/model.ts').SearchIndexState;
    }[]
  >;
}

export interface JsonReader {
  getJson<T>(key: string): Promise<T | null>;
}

export interface SearchLog {
  info(message: string, attributes?: Record<string, unknown>): void;
  error(message: string, attributes?: Record<string, unknown>): void;
}
