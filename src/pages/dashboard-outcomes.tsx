/** @jsxImportSource hono/jsx */
/**
 * The outcome rules: the merchant's forced outcomes, newest first (the order they are tried in), and
 * the form that adds one, offering only what POST /sandbox/v1/outcomes takes for each target.
 */
import { OUTCOMES } from "../domain/outcomes.js";
import { listOutcomeRules } from "../domain/lists.js";
import { maxDelaySeconds, OUTCOME_TARGETS, QUERY_OUTCOMES, RULE_SHAPES } from "../domain/records.js";
import type { Tenant } from "../engine/tenant.js";
import { Action } from "./dashboard-controls.js";
import { EmptyList, SCENARIO_FILES } from "./dashboard-first-steps.js";
import { choices, ListTable, pageOf, tableQuery } from "./dashboard-tables.js";

function RuleForm() {
  const targets = OUTCOME_TARGETS;
  // Only what POST /sandbox/v1/outcomes takes for each target, so no pair it refuses can be sent.
  const spec = Object.fromEntries(targets.map((t) => [t, { outcomes: OUTCOMES[t], queries: QUERY_OUTCOMES[t] ?? [], ...RULE_SHAPES[t], max_delay: maxDelaySeconds(t) }]));
  const first = spec[targets[0]]!;
  return (
    <form id="rule-form" data-post="/sandbox/v1/outcomes" data-rules={JSON.stringify(spec)} class="row gap-top" novalidate>
      <div data-field>
        <label for="rule-target">Target</label>
        <select id="rule-target" name="target">{targets.map((t) => <option value={t}>{t}</option>)}</select>
      </div>
      <div data-field>
        <label for="rule-outcome">Outcome</label>
        <select id="rule-outcome" name="outcome" data-for={targets[0]}>{first.outcomes.map((o) => <option value={o}>{o}</option>)}</select>
      </div>
      <div data-field>
        <label for="rule-match-key">Only when</label>
        <select id="rule-match-key" data-match-key>
          <option value="">{`(every ${targets[0]})`}</option>
          {first.match.map((k) => <option value={k}>{k}</option>)}
        </select>
      </div>
      <div data-field data-rule-field="match_value" hidden>
        <label for="rule-match-value">equals</label>
        <input id="rule-match-value" data-match-value class="w-l" autocomplete="off" />
      </div>
      <div data-field data-rule-field="delay_seconds" hidden={!first.delay.includes(first.outcomes[0]!)}>
        <label for="rule-delay">Delay in seconds</label>
        <input id="rule-delay" name="delay_seconds" type="number" min="0" max={String(first.max_delay)} step="1" class="w-m" />
      </div>
      <div data-field data-rule-field="queries" hidden={!first.queries.includes(first.outcomes[0]!)}>
        <label for="rule-queries">Settle on status read no.</label>
        <input id="rule-queries" name="queries" type="number" min="1" step="1" class="w-m" />
      </div>
      <div data-field data-rule-field="times">
        <label for="rule-times">Times</label>
        <input id="rule-times" name="times" type="number" min="1" step="1" class="w-s" />
      </div>
      <div data-field data-rule-field="window_seconds">
        <label for="rule-window">For how many seconds</label>
        <input id="rule-window" name="window_seconds" type="number" min="1" step="1" class="w-m" />
      </div>
      <button type="submit">Add rule</button>
    </form>
  );
}

export function Outcomes({ tenant, query }: { tenant: Tenant; query: URLSearchParams }) {
  const q = tableQuery(query, "", OUTCOME_TARGETS);
  const page = pageOf(q, (paging) => listOutcomeRules(tenant.state, { search: q.search, status: q.status as (typeof OUTCOME_TARGETS)[number] | undefined }, paging));
  const empty = (
    <EmptyList id="outcomes-empty" title="No outcome rules: every request gets its default outcome" scenario={SCENARIO_FILES.outcomes}>
      <p>A rule forces how the next payouts, purchases, cards or transfers turn out (fail, hold, time out, a bank down). Add the first with the form below.</p>
    </EmptyList>
  );
  return (
    <div>
      <ListTable id="outcomes-list" label="Outcome rules" caption="The newest matching rule wins" head={["ID", "Target", "Match", "Outcome", "Delay", "Uses left", ""]} empty={empty}
        query={q} page={page} size={tenant.state.outcomeRules.length} statuses={choices(OUTCOME_TARGETS)} statusLabel="Target" searchLabel="Search id, outcome or match">
        {page.items.map((r) => (
          <tr data-key={r.id}>
            <td data-label="ID" class="mono">{r.id}</td>
            <td data-label="Target">{r.target}</td>
            <td data-label="Match" class="mono">{r.match ? JSON.stringify(r.match) : "any"}</td>
            <td data-label="Outcome">{r.outcome}</td>
            <td data-label="Delay">{r.delay_seconds === null ? "default" : `${r.delay_seconds} s`}</td>
            <td data-label="Uses left">{r.times ?? "until deleted"}</td>
            <td data-label="" class="actions-cell"><Action post={`/sandbox/v1/outcomes/${r.id}`} method="DELETE" label="Delete" secondary /></td>
          </tr>
        ))}
      </ListTable>
      <RuleForm />
    </div>
  );
}
