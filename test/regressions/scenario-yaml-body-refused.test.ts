/**
 * POST /sandbox/v1/scenarios refused `Content-Type: application/yaml` with 415, so a CI script in any
 * language had to JSON-escape its YAML file into `{ "yaml": ... }` first. Now the file is posted as is,
 * as `curl -H 'Content-Type: application/yaml' --data-binary @scenarios/05-payout-completed.yaml`
 * does, over a real connection, and the merchants it makes answer the API with the keys returned.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { httpCall, startFromArgs, stopServers } from "../helpers.js";

afterEach(stopServers);

describe("a scenario file posted as YAML to a running sandbox", () => {
  it.each(["application/yaml", "text/yaml"])("Content-Type: %s loads it (201), and its merchant is served", async (type) => {
    const s = await startFromArgs([]);
    const res = await fetch(`${s.url}/sandbox/v1/scenarios`, {
      method: "POST",
      headers: { "content-type": type },
      body: readFileSync("scenarios/05-payout-completed.yaml"),
    });
    const body = (await res.json()) as { data: { name: string; merchants: { shop: { api_key: string; api_secret: string } } } };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data.name).toBe("Payout completed");
    const { api_key, api_secret } = body.data.merchants.shop;
    const balance = await httpCall(s.url, "GET", "/api/v1/wallet/balance", { keys: { "x-api-key": api_key, "x-api-secret": api_secret } });
    expect(balance.status).toBe(200);
    expect(balance.body.data.balance).toBe(200_000);
  });
});
