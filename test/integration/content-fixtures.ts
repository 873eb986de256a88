import type { DocumentRecord } from '../../functions/core/content/model.ts';
import { newId } from '../../functions/core/ids.ts';

/** A ready document row for content written straight to the table (no PDF, nothing indexed yet). */
export function readyDocument(fields: {
  orgId: string;
  projectId: string;
  fileId: string;
  documentId: string;
  fileName: string;
  classification: DocumentRecord['classification'];
  pageCount: number;
  specificationCount?: number;
}): DocumentRecord {
  const { fileName, pageCount, specificationCount = 0, ...rest } = fields;
  return {
    ...rest,
    fileName,
    fileNameLower: fileName.toLowerCase(),
    jobId: newId('job'),
    contentType: 'application/pdf',
    fileSize: 1,
    sha256: '0'.repeat(64),
    classificationSource: 'given',
    pageCount,
    successfulPageCount: pageCount,
    sheetCount: 0,
    specificationCount,
    status: 'ready',
    searchIndex: { status: 'pending', sourceCount: 0, passageCount: 0, indexedAt: null, error: null },
    createdAt: new Date().toISOString(),
  };
}
