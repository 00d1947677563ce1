/** @jsxImportSource hono/jsx */
/**
 * The controls the dashboard's sections share: a button that calls the API (`data-post`, and
 * `data-method`, `data-body`: the dashboard's script sends it with the signed-in merchant's keys) and
 * a form folded under one summary.
 */
import type { Child } from "hono/jsx";

export function Action(props: { post: string; body?: unknown; label: string; method?: string; secondary?: boolean }) {
  return (
    <button
      type="button"
      class={props.secondary ? "secondary" : undefined}
      data-post={props.post}
      data-method={props.method ?? "POST"}
      data-body={props.body === undefined ? undefined : JSON.stringify(props.body)}
    >
      {props.label}
    </button>
  );
}

/**
 * A form folded under one summary until opened: each is one Tab stop on the way to the tables below
 * instead of one per field, so a keyboard user reaches "Redeliver" quickly. The live updates keep
 * a fold open (its `open` is the user's, not the server's).
 */
export function Fold(props: { id: string; label: string; children?: Child }) {
  return (
    <details class="fold gap-top" id={props.id}>
      <summary>{props.label}</summary>
      {props.children}
    </details>
  );
}
