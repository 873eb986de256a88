import { listSheets } from '../../core/content/queries.ts';
import { filteredListing } from '../../shared/http/content-deps.ts';

export const handler = filteredListing('listSheets', listSheets);
