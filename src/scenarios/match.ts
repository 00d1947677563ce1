/**
 * Expectations in scenario steps: `expected` is a subset of `actual`. Objects match when every
 * expected key matches; arrays element by element (the actual array may be longer); scalars by
 * equality. Each mismatch is reported with its path, as a readable diff line.
 */
export function mismatches(expected: unknown, actual: unknown, path = ""): string[] {
  const here = path || "(root)";
  if (expected !== null && typeof expected === "object") {
    if (Array.isArray(expected)) {
      if (!Array.isArray(actual)) return [`${here}: expected an array, got ${show(actual)}`];
      if (actual.length < expected.length) return [`${here}: expected at least ${expected.length} items, got ${actual.length}`];
      return expected.flatMap((item, i) => mismatches(item, actual[i], `${path}[${i}]`));
    }
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return [`${here}: expected an object, got ${show(actual)}`];
    return Object.entries(expected).flatMap(([key, value]) =>
      mismatches(value, (actual as Record<string, unknown>)[key], path ? `${path}.${key}` : key),
    );
  }
  return Object.is(expected, actual) ? [] : [`${here}: expected ${show(expected)}, got ${show(actual)}`];
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** Reads `data.items[0].id` style paths. */
export function pick(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== "")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * Replaces `$name` with its value. A string that is exactly one reference takes the value's own
 * type (numbers stay numbers); elsewhere references are spliced in as text.
 */
export function substitute(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    const whole = /^\$([A-Za-z_][\w-]*)$/.exec(value);
    if (whole && whole[1]! in vars) return vars[whole[1]!];
    return value.replace(/\$([A-Za-z_][\w-]*)/g, (token, name: string) => (name in vars ? String(vars[name]) : token));
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
  }
  return value;
}
