import pLimit from 'p-limit';
import type { ObjectStore, PipelineDeps } from './ports.ts';

export interface WantedCrop {
  pageNumber: number;
  box: { left: number; top: number; right: number; bottom: number };
  /** Where the PNG goes in the artifacts bucket. */
  key: string;
}

/** Artifacts stored at once by one task (crops, section PDFs). */
export const PUTS_IN_FLIGHT = 8;

/** Renders PNG crops of page regions, in order (null where one cannot be rendered). */
export type CropRenderer = (
  regions: { pageNumber: number; box: WantedCrop['box'] }[],
) => Promise<(Uint8Array | null)[]>;

/**
 * Renders the crops and stores each one that rendered; returns the keys stored. A rendering failure
 * costs the crops, never the file: regions without a crop are listed without one.
 */
export async function renderAndStoreCrops(
  deps: Pick<PipelineDeps, 'log'> & { artifacts: ObjectStore },
  render: CropRenderer,
  wanted: WantedCrop[],
): Promise<string[]> {
  if (wanted.length === 0) return [];
  const rendered = await render(wanted.map(({ pageNumber, box }) => ({ pageNumber, box }))).catch(
    (error: Error) => {
      deps.log.error('Region crops not rendered', { error: error.message, crops: wanted.length });
      return [] as (Uint8Array | null)[];
    },
  );
  const limit = pLimit(PUTS_IN_FLIGHT);
  const stored = await Promise.all(
    rendered.map((crop, index) => {
      const target = wanted[index];
      if (!crop || !target) return null;
      return limit(async () => {
        await deps.artifacts.putBytes(target.key, crop, 'image/png');
        return target.key;
      });
    }),
  );
  return stored.filter((key): key is string => key !== null);
}
