/** One page of a cursor-paginated listing: its items and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Every item of a listing, page after page, fetched lazily as the caller iterates:
 * `for await (const region of client.regions.list(projectId)) { ... }`.
 */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (!page.nextCursor) return;
    if (page.nextCursor === cursor) throw new Error('The listing returned the same cursor twice.');
    cursor = page.nextCursor;
  }
}
