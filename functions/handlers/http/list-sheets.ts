import { listSheets } from '../../core/content/queries.ts';
import { filteredListing } from '../../shared/http/content-listing.ts';
import { listSheetsEndpoint } from './list-sheets.endpoint.ts';

export const handler = filteredListing(listSheetsEndpoint, listSheets);
