import type { PsaClient, Region, Sheet } from '@project-source/sdk';
import { h, svg } from './dom.ts';

const COLORS: Record<string, string> = {
  titleBlock: '#7c3aed',
  view: '#2563eb',
  detail: '#2563eb',
  generalNotes: '#059669',
  notes: '#059669',
  keynotes: '#059669',
  legend: '#d97706',
  schedule: '#dc2626',
};
const colorOf = (regionType: string) => COLORS[regionType] ?? '#475569';
/** `titleBlock` -> `title block` (region types are camelCase identifiers). */
export const typeLabel = (regionType: string) =>
  regionType
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
/** Colored through the CSSOM: the viewer's CSP refuses inline style attributes. */
const swatch = (color: string) => {
  const element = h('span', { class: 'swatch' });
  element.style.background = color;
  return element;
};

/** Blob URLs of region crops, fetched with the bearer key through the SDK (an <img src> cannot send it). */
const crops = new Map<string, Promise<string | null>>();
export function cropUrl(client: PsaClient, url: string | undefined): Promise<string | null> {
  if (!url) return Promise.resolve(null);
  let pending = crops.get(url);
  if (!pending) {
    pending = client.artifacts
      .download(url)
      .then((artifact) =>
        URL.createObjectURL(
          new Blob([artifact.bytes as BlobPart], { type: artifact.contentType || 'image/png' }),
        ),
      )
      .catch(() => null);
    crops.set(url, pending);
  }
  return pending;
}

export interface SheetLinks {
  /** The sheet a printed reference (e.g. "3/A-501") points to, if it is in the project. */
  sheetFor(sheetNumber: string): Sheet | undefined;
  open(sheetId: string, regionId?: string | null): void;
}

/**
 * A sheet drawn at its page size: each region's crop where it sits on the page, outlined and labelled
 * by type; the printed references to other sheets are links to that sheet (and view when known).
 */
export function sheetView(
  client: PsaClient,
  sheet: Sheet,
  regions: Region[],
  links: SheetLinks,
  focusRegionId: string | null,
): HTMLElement {
  const { width, height } = sheet.pageSize;
  const canvas = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'sheet-canvas',
    'data-testid': 'sheet-canvas',
    role: 'img',
    'aria-label': `${sheet.sheetNumber ?? ''} ${sheet.sheetTitle ?? ''}`,
  });
  canvas.append(svg('rect', { x: 0, y: 0, width, height, class: 'sheet-paper' }));
  const legend = h('ul', { class: 'region-list', 'data-testid': 'region-list' });
  // SVG paints in document order: the largest regions (a sheet-wide view) go first, so they lie under
  // the smaller ones they contain instead of covering them; the focused region is raised last.
  const area = (region: Region) =>
    (region.displayBox.right - region.displayBox.left) * (region.displayBox.bottom - region.displayBox.top);
  const drawn = [...regions].sort((a, b) => area(b) - area(a));
  let focusedOutline: SVGElement | null = null;
  const legendItems = new Map<string, HTMLElement>();
  for (const region of drawn) {
    const box = region.displayBox;
    const w = Math.max(1, box.right - box.left);
    const hgt = Math.max(1, box.bottom - box.top);
    const image = svg('image', {
      x: box.left,
      y: box.top,
      width: w,
      height: hgt,
      preserveAspectRatio: 'none',
    });
    canvas.append(image);
    void cropUrl(client, region.artifacts?.find((a) => a.type === 'region_crop')?.url).then((href) => {
      if (href) image.setAttribute('href', href);
    });
    const focused = region.regionId === focusRegionId;
    const outline = svg('rect', {
      x: box.left,
      y: box.top,
      width: w,
      height: hgt,
      class: `region-box${focused ? ' focused' : ''}`,
      stroke: colorOf(region.regionType),
      'data-testid': 'region-overlay',
      'data-region-type': region.regionType,
      'data-region-id': region.regionId,
    });
    outline.append(svg('title', {}, `${region.regionType}: ${region.label}`));
    canvas.append(outline);
    if (focused) focusedOutline = outline;
    canvas.append(
      svg(
        'text',
        {
          x: box.left + 4,
          y: Math.max(12, box.top - 4),
          class: 'region-label',
          fill: colorOf(region.regionType),
        },
        typeLabel(region.regionType),
      ),
    );
    const references = region.normalizedData?.sheetReferences ?? [];
    for (const reference of references) {
      const target = links.sheetFor(reference.sheet);
      const refBox = reference.displayBox;
      if (!target || !refBox) continue;
      const link = svg(
        'a',
        {
          href: '#',
          class: 'sheet-reference',
          'data-testid': 'sheet-reference',
          onclick: ((event: Event) => {
            event.preventDefault();
            links.open(target.sheetId, reference.target?.regionId ?? null);
          }) as EventListener,
        },
        svg('rect', {
          x: refBox.left - 2,
          y: refBox.top - 2,
          width: refBox.right - refBox.left + 4,
          height: refBox.bottom - refBox.top + 4,
        }),
        svg('title', {}, `Go to ${reference.text}`),
      );
      canvas.append(link);
    }
    legendItems.set(
      region.regionId,
      h(
        'li',
        { class: focused ? 'focused' : undefined },
        swatch(colorOf(region.regionType)),
        h('strong', {}, typeLabel(region.regionType)),
        ` ${region.label}`,
        ...references.flatMap((reference) => {
          const target = links.sheetFor(reference.sheet);
          if (!target) return [];
          return [
            h(
              'button',
              {
                class: 'link',
                'data-testid': 'reference-link',
                onclick: () => links.open(target.sheetId, reference.target?.regionId ?? null),
              },
              `→ ${reference.text}`,
            ),
          ];
        }),
      ),
    );
  }
  for (const region of regions) legend.append(legendItems.get(region.regionId) ?? '');
  if (focusedOutline) canvas.append(focusedOutline);
  if (focusRegionId) {
    queueMicrotask(() =>
      canvas.querySelector('.focused')?.scrollIntoView({ block: 'center', inline: 'center' }),
    );
  }
  return h('div', { class: 'sheet' }, h('div', { class: 'sheet-scroll' }, canvas), legend);
}
