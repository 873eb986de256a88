import { listDocuments } from '../../core/content/queries.ts';
import { filteredListing } from '../../shared/http/content-listing.ts';
import { listDocumentsEndpoint } from './list-documents.endpoint.ts';

export const handler = filteredListing(listDocumentsEndpoint, listDocuments);
