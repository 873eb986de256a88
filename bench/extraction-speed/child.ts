/** One engine run for the speed bench; prints a JSON line with time, pages, peak RSS and OCR time. */
import { readFileSync } from 'node:fs';
import { extractDocument } from '../../functions/engine/index.ts';

const [file, from, to, ocr, workers] = process.argv.slice(2);
if (!file) throw new Error('usage: child.ts <file.pdf> <from> <to> <ocr|no-ocr> <workers>');
const bytes = new Uint8Array(readFileSync(file));
const started = performance.now();
const cpuStarted = process.cpuUsage();
const result = await extractDocument(bytes, {
  pages: { from: Number(from), to: Number(to) },
  ocr: ocr === 'ocr' ? 'auto' : false,
  workers: workers === 'auto' ? 'auto' : Number(workers ?? 1),
});
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuStarted);
console.log(
  JSON.stringify({
    ms,
    // User + system CPU of every thread of the process (tesseract and pdf.js included).
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    pages: result.pages.length,
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    ocrSeconds: result.stats.ocrSeconds,
    ocrPages: result.stats.ocrPages,
  }),
);
