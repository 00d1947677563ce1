/**
 * On a shared sandbox (`--shared`), anyone could pre-register the fixed api_key of a team's public
 * scenario with an anonymous POST /sandbox/v1/scenarios: the team's own load was then refused and
 * its suite's keys answered 401. The refusal was an oracle too: a key in use got 422, a free one 201.
 * Now a load over HTTP on a shared sandbox takes no fixed api_key or api_secret, with one answer
 * whether the key is in use or not; the team's fixed keys come from `--scenario FILE` at start.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { balanceAt, expectError, harness, httpCall, startFromArgs, stopServers, tempDirs, type HttpReply } from "../helpers.js";

const tempDir = tempDirs("msb-squat-");
afterEach(stopServers); // registered after tempDirs, so it runs first: no server writes into a removed folder

const TEAM_KEYS = { api_key: "pk_test_team_suite_fixed_0001", api_secret: "sk_test_team_suite_fixed_secret_0001" };
const TEAM_HEADERS = { "x-api-key": TEAM_KEYS.api_key, "x-api-secret": TEAM_KEYS.api_secret };
/** The team's public scenario, as a stranger would copy it (the secret is public too). */
const teamScenario = (keys: Record<string, string>) => ({ name: "Team suite", merchants: { shop: { business_name: "Team Shop Ltd", wallet_balance: 1000, ...keys } } });
const TEAM_YAML = `name: Team suite
merchants:
  shop: { business_name: Team Shop Ltd, wallet_balance: 1000, api_key: ${TEAM_KEYS.api_key}, api_secret: ${TEAM_KEYS.api_secret} }
`;

const load = (url: string, body: unknown) => httpCall(url, "POST", "/sandbox/v1/scenarios", { body });

/** The refusal of fixed keys: 422 on the field, naming both ways a team gets its merchants. */
function refusedFixedKeys(res: HttpReply, field: string) {
  const body = expectError(res, 422, "VALIDATION_ERROR");
  expect(Object.keys(body.errors ?? {})).toEqual([`merchants.shop.${field}`]);
  expect(body.message).toMatch(/--scenario FILE/);
  expect(body.message).toMatch(/use the keys this response returns/);
  return { status: res.status, body: res.body };
}

describe("--shared: a scenario's fixed keys cannot be squatted", () => {
  it("a stranger's load with the team's keys is refused alike before and after the team has them; the team's --scenario keeps its keys", async () => {
    const dir = await tempDir();
    const data = join(dir, "data");
    const file = join(dir, "team.yaml");
    writeFileSync(file, TEAM_YAML);

    // The stranger comes first, while the key is free, and tries to keep it across a restart.
    const before = await startFromArgs(["--shared", "--data", data]);
    const merchants = before.registry.size;
    const whileFree = refusedFixedKeys(await load(before.url, teamScenario(TEAM_KEYS)), "api_key");
    expect(before.registry.size).toBe(merchants);
    expect(before.registry.findByApiKey(TEAM_KEYS.api_key)).toBeUndefined();
    await stopServers();

    // The operator starts the shared sandbox with the team's file: its merchant has the fixed keys.
    const shared = await startFromArgs(["--shared", "--data", data, "--scenario", file]);
    expect(shared.scenarioMerchants.map((s) => [s.alias, s.tenant.config.api_key])).toEqual([["shop", TEAM_KEYS.api_key]]);
    const team = shared.scenarioMerchants[0]!.tenant;
    expect(await balanceAt(shared.url, TEAM_HEADERS)).toBe(1000);

    // Now the key is in use: the stranger gets the very same answer, so learns nothing.
    const whileTaken = refusedFixedKeys(await load(shared.url, teamScenario(TEAM_KEYS)), "api_key");
    expect(whileTaken).toEqual(whileFree);
    const secretOnly = refusedFixedKeys(await load(shared.url, teamScenario({ api_secret: TEAM_KEYS.api_secret })), "api_secret");
    expect(secretOnly.body.message).toBe(whileFree.body.message);

    // Without fixed keys a load works: the keys are the response's, and they are not the team's.
    const own = await load(shared.url, teamScenario({ webhook_secret: "whsec_team_suite_fixed_0001" }));
    expect(own.status, own.text).toBe(201);
    const generated = own.body.data.merchants.shop;
    expect(generated).toMatchObject({ api_key: expect.stringMatching(/^pk_test_/), webhook_secret: "whsec_team_suite_fixed_0001" });
    expect(generated.api_key).not.toBe(TEAM_KEYS.api_key);
    expect(await balanceAt(shared.url, { "x-api-key": generated.api_key, "x-api-secret": generated.api_secret })).toBe(1000);

    // The team's keys still reach the team's merchant, and only it.
    const me = await httpCall(shared.url, "GET", "/sandbox/v1/merchant", { keys: TEAM_HEADERS });
    expect(me.status, me.text).toBe(200);
    expect(me.body.data).toMatchObject({ merchant_id: team.id, api_key: TEAM_KEYS.api_key, business_name: "Team Shop Ltd" });
    expect(shared.registry.findByApiKey(TEAM_KEYS.api_key)).toBe(team);
  });
});

describe("without --shared (the user's own sandbox)", () => {
  it("a scenario posted with fixed keys keeps them, as before", async () => {
    const s = harness();
    const res = await s.call("POST", "/sandbox/v1/scenarios", { body: teamScenario(TEAM_KEYS) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.merchants.shop).toMatchObject(TEAM_KEYS);
    expect((await s.call("GET", "/api/v1/wallet/balance", { headers: TEAM_HEADERS })).status).toBe(200);
  });
});
