/**
 * On PostgreSQL, a change of a merchant started inside another change of the same merchant (a webhook
 * attempt's plan started by a timer that a catch-up fired) joins that change's transaction; but the
 * outer change committed as soon as its own work was done, without waiting for a joined change it had
 * not awaited. What the joined change wrote after that commit (the attempt's plan and lease, the
 * event taken off its timer) was kept nowhere: another process, or this one after a restart, found the
 * event pending with no timer and no lease. A change now commits only once the changes that joined it
 * are done.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundWallet } from "../../src/domain/wallet.js";
import { contextOf } from "../../src/engine/tenant.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";
import { pgNode, sharedWall, type PgNode } from "../support/pg-nodes.js";

const pg = usePostgres();
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe.skipIf(SKIP_POSTGRES)("a change started inside another of the same merchant", () => {
  const wall = sharedWall();
  let a: PgNode;
  beforeAll(async () => {
    a = await pgNode(pg.cluster.url, wall, "joined");
  }, 30_000);
  afterAll(async () => {
    await a?.close();
  });

  it("is kept with it, even when the outer work did not wait for it", async () => {
    const m = await a.h.merchant({ wallet_balance: 1_000 });
    const t = m.tenant;
    let inner: Promise<void> | undefined;
    await a.store.change(t, () => {
      // Started, not awaited: it finishes a few turns of the event loop later.
      inner = a.store.change(t, async () => {
        await turns(5);
        fundWallet(contextOf(t), t.state, 250_00, "joined late");
      });
    });
    await inner;
    const fresh = await pgNode(pg.cluster.url, wall, "reader");
    try {
      const balance = await fresh.as(m).call("GET", "/api/v1/wallet/balance");
      expect(balance.body.data.balance).toBe(1_250);
    } finally {
      await fresh.close();
    }
  });
});
