/**
 * One artifact-render run for the render bench: imports the engine at `engineIndex` (this checkout's or a
 * reference commit's), renders the crops and overlays listed in `plan.json` and prints a JSON line with the
 * time and CPU of the renders alone (the engine's modules are loaded before the clock starts).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface Plan {
  file: string;
  pages: { pageNumber: number; boxes: { left: number; top: number; width: number; height: number }[] }[];
}

type Box = Plan['pages'][number]['boxes'][number];
interface Engine {
  renderRegionCrops: (
    bytes: Uint8Array,
    crops: readonly { pageNumber: number; box: Box }[],
    dpi?: number,
  ) => Promise<(Uint8Array | null)[]>;
  renderOverlay: (
    bytes: Uint8Array,
    pageNumber: number,
    regions: readonly { regionType: string; label: string; displayBox: Box; titleDisplayBox: null }[],
    dpi?: number,
  ) => Promise<Uint8Array>;
}

const [engineIndex, planPath, mode] = process.argv.slice(2);
if (!engineIndex || !planPath || (mode !== 'crops' && mode !== 'overlays')) {
  throw new Error('usage: child.ts <engine index.ts> <plan.json> <crops|overlays>');
}
const engine = (await import(pathToFileURL(engineIndex).href)) as Engine;
const plan = JSON.parse(readFileSync(planPath, 'utf8')) as Plan;
const bytes = new Uint8Array(readFileSync(plan.file));

const started = performance.now();
const cpuStarted = process.cpuUsage();
let images = 0;
let pngBytes = 0;
if (mode === 'crops') {
  const crops = plan.pages.flatMap((page) => page.boxes.map((box) => ({ pageNumber: page.pageNumber, box })));
  const pngs = await engine.renderRegionCrops(bytes, crops, 110);
  for (const png of pngs) {
    if (!png) throw new Error('a crop was not rendered');
    images++;
    pngBytes += png.length;
  }
} else {
  for (const page of plan.pages) {
    const regions = page.boxes.map((displayBox, i) => ({
      regionType: 'plan',
      label: `R${i + 1}`,
      displayBox,
      titleDisplayBox: null,
    }));
    const png = await engine.renderOverlay(bytes, page.pageNumber, regions, 50);
    images++;
    pngBytes += png.length;
  }
}
const cpu = process.cpuUsage(cpuStarted);
console.log(
  JSON.stringify({
    ms: performance.now() - started,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    images,
    pngBytes,
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
