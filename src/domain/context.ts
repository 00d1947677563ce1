import type { Ids } from "../engine/ids.js";
import type { MerchantConfig } from "../store/types.js";
import type { Catalog } from "./catalog.js";

/** Everything a domain function may read besides the state it changes. Time and ids come in here. */
export interface DomainContext {
  now: number;
  ids: Ids;
  config: MerchantConfig;
  catalog: Catalog;
}

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
