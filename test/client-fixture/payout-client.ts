/**
 * A merchant's client generated from /openapi.json: openapi-typescript types (./generated/api.d.ts,
 * written by test/openapi.test.ts) with openapi-fetch. tsc checks this file with the generated types;
 * the @ts-expect-error lines prove the types are real (with `any` they would be unused, an error).
 */
import createClient from "openapi-fetch";
import type { paths } from "./generated/api.js";

export async function payoutEndToEnd(baseUrl: string, headers: { "X-Api-Key": string; "X-Api-Secret": string }) {
  const client = createClient<paths>({ baseUrl, headers });

  const banks = await client.GET("/api/v1/payout/banks");
  const gtb = banks.data?.data.find((b) => b.bank_code === "058");
  if (!gtb) throw new Error("GTBank is missing from the bank list");

  const verified = await client.POST("/api/v1/payout/verify-account", { body: { bank_code: "058", account_number: "0000000018" } });
  const accountName: string = verified.data!.data.account_name;

  const transfer = await client.POST("/api/v1/payout/transfer", {
    body: { amount: 2500, bank_code: gtb.bank_code, account_number: "0000000018", account_name: accountName, bank_name: gtb.bank_name, reference: "client-1" },
  });
  if (transfer.response.status !== 201 || !transfer.data) throw new Error(`transfer failed: ${JSON.stringify(transfer.error)}`);
  const fee: number = transfer.data.data.fee;

  await client.POST("/sandbox/v1/clock/advance", { body: { seconds: 30 } });
  const status = await client.GET("/api/v1/payout/status", { params: { query: { reference: "client-1" } } });
  return { fee, status: status.data!.data.status, processedAt: status.data!.data.processed_at };
}

export function typeErrorsAreCaught(client: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error amount must be a number
  void client.POST("/api/v1/payout/transfer", { body: { amount: "2500", bank_code: "058", account_number: "0000000018", account_name: "A", bank_name: "B" } });
  // @ts-expect-error no such path
  void client.GET("/api/v1/not-a-route");
}
