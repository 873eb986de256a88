import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { recognize, terminateOcr } from '../../../functions/engine/io/ocr.ts';

describe('an OCR read that outlives its worker', () => {
  it('stops with an error instead of calling the ended worker (which would end the process)', async () => {
    // Prepare: a read starts, then its batch ends the OCR worker before the read reaches it.
    const canvas = createCanvas(400, 100);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, 400, 100);

    // Act
    const pending = recognize(canvas, 150, '6', 60_000);
    await terminateOcr();

    // Assess: the read fails alone; a later read starts a new worker and works.
    await expect(pending).rejects.toMatchObject({ code: 'page_timeout' });
    await expect(recognize(canvas, 150, '6', 60_000)).resolves.toEqual([]);
    await terminateOcr();
  });
});
