/** One page read from storage: the items, and where the next page starts. */
export interface Page<T> {
  items: T[];
  /** Opaque storage position after the last item, or null on the last page. */
  nextPosition: unknown | null;
  /** Opaque storage position after each item, to resume right after it when a page stops early. */
  positions: unknown[];
}

/** The public pagination envelope of entity lists (the contract's "Pagination envelope"). */
export interface PageEnvelope {
  total: number;
  limit: number;
  cursor: string | null;
  nextCursor: string | null;
  returnedCount: number;
  hasMore: boolean;
  pageInfo: {
    startCursor: string | null;
    endCursor: string | null;
    hasPreviousPage: boolean;
    hasNextPage: boolean;
  };
}

export function pageEnvelope(args: {
  total: number;
  limit: number;
  cursor: string | null;
  nextCursor: string | null;
  returnedCount: number;
}): PageEnvelope {
  const hasMore = args.nextCursor !== null;
  return {
    total: args.total,
    limit: args.limit,
    cursor: args.cursor,
    nextCursor: args.nextCursor,
    returnedCount: args.returnedCount,
    hasMore,
    pageInfo: {
      startCursor: args.cursor,
      endCursor: args.nextCursor,
      hasPreviousPage: args.cursor !== null,
      hasNextPage: hasMore,
    },
  };
}
