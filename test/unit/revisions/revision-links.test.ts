import { describe, expect, it } from 'vitest';
import type { FileContext, SheetRecord } from '../../../functions/core/content/model.ts';
import { sheetEntity } from '../../../functions/core/content/queries.ts';
import type { JobFileRecord } from '../../../functions/core/jobs/model.ts';
import { contentRows } from '../../../functions/core/pipeline/content-rows.ts';
import { contentFingerprint } from '../../../functions/core/revisions/content-fingerprint.ts';
import {
  confidentMatches,
  REVISION_CONFIDENCE_FLOOR,
} from '../../../functions/core/revisions/link-revised-sheets.ts';
import { matchRevisedSheets } from '../../../functions/core/revisions/match-revised-sheets.ts';
import { storedSheetForMatching } from '../../../functions/core/revisions/sheet-for-matching.ts';
import type { ExtractionResult } from '../../../functions/engine/model.ts';
import { defined } from '../../defined.ts';
import { drawingSet, forMatching, revise } from './drawing-sets.ts';

const storedRecord = (overrides: Partial<SheetRecord> = {}): SheetRecord => ({
  projectId: 'prj_1',
  sheetId: 'sht_1_2',
  fileId: 'fil_1',
  documentId: 'doc_1',
  fileName: 'Bid Set.pdf',
  fileNameLower: 'bid set.pdf',
  pageNumber: 2,
  sheetNumber: 'A-102',
  sheetTitle: 'SECOND FLOOR PLAN',
  discipline: null,
  revisions: [],
  pageSize: { width: 2592, height: 1728, name: null },
  textSource: 'textLayer',
  confidence: 1,
  regionCount: 0,
  fingerprint: contentFingerprint(['GENERAL NOTES', 'GUARDRAIL AT MEZZANINE EDGE']),
  ...overrides,
});

describe('which matches become revision links', () => {
  it('links a sure match and leaves a sheet two look-alike held sheets fit about equally', () => {
    // Prepare: the project holds A-101..A-104 and, in another file, a second copy of A-103.
    const set = drawingSet(4, 3);
    const held = [
      ...set.map((sheet, index) => forMatching(sheet, `held-${index}`)),
      forMatching({ ...defined(set[2], 'A-103'), fileName: 'copy.pdf' }, 'held-copy'),
    ];
    const uploaded = [
      forMatching(revise(defined(set[0], 'A-101'), 5), 'new-a101'),
      forMatching(revise(defined(set[2], 'A-103'), 6), 'new-a103'),
    ];

    // Act
    const matches = matchRevisedSheets({ held, uploaded });
    const linked = confidentMatches(matches);

    // Assess: A-103 has two candidates that fit equally, so its confidence is about a half.
    expect(matches[1]?.previousSheetId).not.toBeNull();
    expect(matches[1]?.confidence).toBeLessThan(REVISION_CONFIDENCE_FLOOR);
    expect(linked).toEqual([
      { sheetId: 'new-a101', previousSheetId: 'held-0', confidence: matches[0]?.confidence },
    ]);
    expect(linked[0]?.confidence).toBeGreaterThanOrEqual(REVISION_CONFIDENCE_FLOOR);
  });

  it('links a sheet stored before fingerprints by its number and title alone', () => {
    // Prepare: the held sheet's row has no fingerprint.
    const [sheet] = drawingSet(1, 4);
    const held = forMatching(defined(sheet, 'A-101'), 'held-0');
    const unfingerprinted = storedSheetForMatching({
      id: 'held-0',
      sheet: {
        sheetNumber: held.sheetNumber,
        confidence: held.numberConfidence,
        sheetTitle: held.sheetTitle,
        discipline: null,
        revisions: held.revisions,
        pageSize: { ...held.pageSize, name: null },
      },
      fileName: held.fileName,
      fingerprint: null,
    });

    // Act
    const [match] = matchRevisedSheets({
      held: [unfingerprinted],
      uploaded: [forMatching(revise(defined(sheet, 'A-101'), 7), 'new-0')],
    });

    // Assess
    expect(match?.evidence?.contentSimilarity).toBeNull();
    expect(confidentMatches(match ? [match] : [])).toHaveLength(1);
  });
});

describe('a sheet as listed', () => {
  it('is current with null links while nothing revises it, and never shows its fingerprint', () => {
    const entity = sheetEntity(storedRecord());

    expect(entity).toMatchObject({ sheetId: 'sht_1_2', current: true, revisionOf: null, supersededBy: null });
    expect(Object.keys(entity)).not.toContain('fingerprint');
    expect(Object.keys(entity)).not.toContain('projectId');
  });

  it('is not current once superseded, and says what it revises', () => {
    const entity = sheetEntity(
      storedRecord({ supersededBy: 'sht_3_1', revisionOf: { sheetId: 'sht_0_2', confidence: 0.97 } }),
    );

    expect(entity).toMatchObject({
      current: false,
      supersededBy: 'sht_3_1',
      revisionOf: { sheetId: 'sht_0_2', confidence: 0.97 },
    });
  });
});

describe('a sheet row written at assembly', () => {
  it('carries the fingerprint of its page lines', () => {
    // Prepare
    const lines = ['ARCHITECT INC.', 'GUARDRAIL AT MEZZANINE EDGE 42 INCHES', 'STORAGE ROOM 210 SHELVING'];
    const ctx: FileContext = {
      orgId: 'org_1',
      projectId: 'prj_1',
      jobId: 'job_1',
      fileId: 'fil_1',
      documentId: 'doc_1',
      fileName: 'set.pdf',
      classification: 'plans',
    };
    const result = {
      classification: 'plans',
      classificationSource: 'given',
      pageCount: 1,
      pages: [],
      specifications: [],
      sheets: [
        {
          pageNumber: 1,
          sheetNumber: 'A-102',
          sheetNumberNormalized: 'A102',
          sheetTitle: 'SECOND FLOOR PLAN',
          discipline: null,
          revisions: [],
          pageSize: { width: 2592, height: 1728, name: null },
          sheetNumberBox: null,
          sheetTitleBox: null,
          textSource: 'textLayer',
          confidence: 1,
          regions: [],
        },
      ],
    } as unknown as ExtractionResult;
    const file = { contentType: 'application/pdf', fileSize: 1, sha256: '0' } as JobFileRecord;

    // Act
    const { content } = contentRows({
      ctx,
      file,
      result,
      successfulPages: 1,
      cropKeys: new Set(),
      sections: [],
      documentPages: [],
      pageLines: (page) => (page === 1 ? lines : []),
    });

    // Assess
    expect(content.sheets[0]?.fingerprint).toEqual(contentFingerprint(lines));
    expect(content.sheets[0]?.fingerprint?.shingleCount).toBeGreaterThan(0);
  });
});
