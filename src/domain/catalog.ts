/** The product catalogue every merchant shares (read-only fixtures): banks and VTU products. */
export interface Bank {
  bank_code: string;
  bank_name: string;
  nip_code: string;
}

export type Network = "mtn" | "glo" | "airtel" | "9mobile";
export const NETWORKS: readonly Network[] = ["mtn", "glo", "airtel", "9mobile"];

export interface DataPlan {
  id: number;
  network: Network;
  name: string;
  plan_type: string;
  size: string;
  validity: string;
  price: number;
}

export type CableProvider = "DSTV" | "GOTV" | "STARTIMES";

export interface CablePlan {
  id: number;
  provider_name: CableProvider;
  name: string;
  validity: string;
  price: number;
}

export interface Disco {
  id: number;
  code: string;
  name: string;
  region: string;
}

export interface ExamType {
  id: number;
  code: string;
  name: string;
  selling_price: number;
}

export interface Catalog {
  banks: Bank[];
  bankByCode: Map<string, Bank>;
  dataPlans: DataPlan[];
  cablePlans: CablePlan[];
  discos: Disco[];
  examTypes: ExamType[];
}

export function byId<T extends { id: number }>(items: T[], id: number): T | undefined {
  return items.find((item) => item.id === id);
}

/**
 * The single bank behind virtual accounts and payment-link accounts (`bank: "partnerbank"`). The spec
 * names no bank; this one is fictional on purpose so no sandbox account number is mistaken for a real
 * one. Its 3-digit code drives the NUBAN check digit.
 */
export const PARTNER_BANK = { key: "partnerbank", bank_name: "Partner Bank (Sandbox)", cbn_code: "999" } as const;
