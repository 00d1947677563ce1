/**
 * With --data, a merchant deleted while one of its webhook attempts was in flight came back: once the
 * receiver answered, the attempt was logged and the merchant saved again, which wrote back the file
 * the delete had just removed, so the next start restored a merchant its owner had deleted. A change
 * kept for a merchant that is no longer in the registry is not saved.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileTenantStore } from "../../src/persistence/file-tenant-store.js";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { buildRegistry } from "../../src/server.js";
import { client } from "../client.js";
import { closedAfterEach, harness, receivers, tempDirs, until } from "../helpers.js";

// "After" hooks run in the reverse order of registration: the receiver closes, then the runtime stops and the store closes.
const dataDir = tempDirs("msb-deleted-merchant-");
const stoppedAfter = closedAfterEach(async (s: { runtime: Runtime; store: FileTenantStore }) => {
  s.runtime.stop();
  await s.store.close();
});
const receiver = receivers();

describe("a merchant deleted while its webhook attempt is in flight", () => {
  it("stays deleted: the attempt that ends after the delete does not write its file back", async () => {
    const dir = await dataDir();
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const r = await receiver(() => ({ status: 200, hold: answered }));
    const { registry } = buildRegistry({});
    const store = new FileTenantStore(dir, registry);
    const runtime = createRuntime({ store });
    store.attach(runtime.driver);
    stoppedAfter({ runtime, store });
    const h = harness({ registry, runtime });

    const m = await h.merchant({ webhook_url: r.url });
    const file = join(dir, `${m.id}.json`);
    const c = client(m);
    await c.transferIn((await c.virtualAccount()).account_number, 5_000); // payment.received
    await r.waitFor(1); // its attempt is open at the receiver
    expect(existsSync(file)).toBe(true);

    expect((await m.call("DELETE", "/sandbox/v1/merchant")).status).toBe(200);
    expect(existsSync(file)).toBe(false);
    answer();
    await until(() => r.open === 0, "the receiver answered");
    await runtime.dispatcher.idle(m.tenant); // the attempt is logged
    await store.files.flush();
    expect(existsSync(file), "the deleted merchant's file written back").toBe(false);
  });
});
