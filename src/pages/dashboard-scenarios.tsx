/** @jsxImportSource hono/jsx */
/**
 * The Scenarios view: a scenario file (YAML or JSON, the format of scenarios/*.yaml) is loaded by
 * POST /sandbox/v1/scenarios into new merchants, and each can be switched to in one step. Not a
 * server fragment: what is being typed stays as the user left it.
 */
import { LINK_SCENARIO_YAML } from "../scenarios/examples.js";

export function Scenarios() {
  return (
    <>
      <p class="muted">
        Each merchant a scenario declares is created new, with its own keys and a manual clock; this merchant is not changed. The format is
        described in the <a href="/docs">API docs</a> and the scenario reference (docs/reference/scenario-format.md), and the package's scenarios/ folder holds worked examples.
      </p>
      <form id="scenario-form" data-post="/sandbox/v1/scenarios" data-raw="scenario" data-content-type="application/yaml" data-describe="scenario" data-keep novalidate>
        <div data-field>
          <label for="scenario-text">Scenario (YAML or JSON)</label>
          <textarea id="scenario-text" name="scenario" spellcheck={false} autocomplete="off">{LINK_SCENARIO_YAML}</textarea>
        </div>
        <button type="submit" class="gap-top">Load scenario</button>
      </form>
      <div id="scenario-merchants" aria-live="polite"></div>
    </>
  );
}
