/** @jsxImportSource hono/jsx */
/** The signed-in merchant in the dashboard's top bar: its business name, and its clock's time and mode. */
import { contextOf, type Tenant } from "../engine/tenant.js";

export function Identity({ tenant }: { tenant: Tenant }) {
  const clock = tenant.clock.settings();
  const now = new Date(contextOf(tenant).now).toISOString().replace("T", " ").replace(/:\d\d\.\d+Z$/, " UTC");
  return (
    <div class="merchant-id">
      <strong data-testid="merchant-name">{tenant.config.business_name}</strong>
      <span data-testid="merchant-clock">
        {now} · {clock.mode === "realtime" ? `realtime ×${clock.speed}` : "manual clock"}
      </span>
    </div>
  );
}
