/**
 * Fixtures are data: JSON files in `fixtures/`, validated here at load so a broken edit fails at start
 * with the file and field named. `dir` can point at a replacement set.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { findAsset } from "./assets.js";
import { NETWORKS, type Catalog } from "../domain/catalog.js";
import { NewMerchantSchema } from "../domain/merchant-settings.js";

/** The bundled fixtures: the nearest `fixtures/` folder above this module (src/, dist/ or the CLI bundle). */
export const DEFAULT_FIXTURES_DIR = dirname(findAsset("fixtures/banks.json"));

const unique = <T>(key: (item: T) => unknown, what: string) => (items: T[], ctx: z.RefinementCtx) => {
  const seen = new Set<unknown>();
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) ctx.addIssue({ code: "custom", message: `duplicate ${what} ${String(k)}` });
    seen.add(k);
  }
};

const BankList = z
  .array(z.object({ bank_code: z.string().regex(/^\d{3,6}$/), bank_name: z.string().min(1), nip_code: z.string().regex(/^\d{6}$/) }).strict())
  .min(1)
  .superRefine(unique((b) => b.bank_code, "bank_code"));
const DataPlanList = z
  .array(
    z
      .object({
        id: z.number().int().positive(),
        network: z.enum(NETWORKS as [string, ...string[]]),
        name: z.string().min(1),
        plan_type: z.string().min(1),
        size: z.string().min(1),
        validity: z.string().min(1),
        price: z.number().positive(),
      })
      .strict(),
  )
  .superRefine(unique((p) => p.id, "id"));
const CablePlanList = z
  .array(
    z
      .object({
        id: z.number().int().positive(),
        provider_name: z.enum(["DSTV", "GOTV", "STARTIMES"]),
        name: z.string().min(1),
        validity: z.string().min(1),
        price: z.number().positive(),
      })
      .strict(),
  )
  .superRefine(unique((p) => p.id, "id"));
const DiscoList = z
  .array(z.object({ id: z.number().int().positive(), code: z.string().min(1), name: z.string().min(1), region: z.string() }).strict())
  .superRefine(unique((d) => d.id, "id"));
const ExamTypeList = z
  .array(z.object({ id: z.number().int().positive(), code: z.string().min(1), name: z.string().min(1), selling_price: z.number().positive() }).strict())
  .superRefine(unique((e) => e.id, "id"));

/** Requests run through the API when a demo merchant is first created, so it starts with things to show. */
const ActivityList = z.array(
  z
    .object({
      note: z.string().optional(),
      method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
      /** `$name` is replaced by a value captured from an earlier reply. */
      path: z.string().startsWith("/"),
      body: z.record(z.string(), z.unknown()).optional(),
      /** `{ name: "data.account_number" }` keeps that value of the reply as `$name`. */
      capture: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
);
export type ActivityRequest = z.infer<typeof ActivityList>[number];

const DemoMerchantList = z.array(
  z.object({
    merchant_id: z.string().min(1),
    api_key: z.string().min(16),
    api_secret: z.string().min(16),
    webhook_secret: z.string().min(16),
    settings: NewMerchantSchema,
    /** A file of this folder with the merchant's sample activity (fixtures/demo-activity.json). */
    activity: z.string().optional(),
  }),
);
export type FixtureMerchant = z.infer<typeof DemoMerchantList>[number] & { requests: ActivityRequest[] };

function load<T extends z.ZodType>(dir: string, file: string, schema: T): z.infer<T> {
  const path = join(dir, file);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`fixture ${path} cannot be read: ${(err as Error).message}`);
  }
  // Parsed once: zod's compiled fast path (made with new Function, out of reach of V8's code cache) would cost the start more than it saves.
  const result = schema.safeParse(raw, { jitless: true });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`fixture ${path} is invalid at ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return result.data;
}

export function loadCatalog(dir = DEFAULT_FIXTURES_DIR): Catalog {
  const banks = load(dir, "banks.json", BankList);
  return {
    banks,
    bankByCode: new Map(banks.map((b) => [b.bank_code, b])),
    dataPlans: load(dir, "data-plans.json", DataPlanList) as Catalog["dataPlans"],
    cablePlans: load(dir, "cable-plans.json", CablePlanList),
    discos: load(dir, "discos.json", DiscoList),
    examTypes: load(dir, "exam-types.json", ExamTypeList),
  };
}

export function loadDemoMerchants(dir = DEFAULT_FIXTURES_DIR): FixtureMerchant[] {
  return load(dir, "merchants.json", DemoMerchantList).map((m) => ({ ...m, requests: m.activity ? load(dir, m.activity, ActivityList) : [] }));
}
