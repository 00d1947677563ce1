/**
 * Magic values: inputs that force an outcome with no control call, as VTU and payment sandboxes do.
 * The README's "Magic values" table lists every one; outcome rules set through the control API
 * (per merchant, newest first) arrive with the lifecycle work and take precedence over these.
 */
export type VtuOutcome = "success" | "processing" | "fail";

/** Phone numbers (airtime, data, cable's optional phone) that force a VTU outcome. */
export const VTU_MAGIC_PHONES: Record<string, VtuOutcome> = {
  "08011111111": "success",
  "08022222222": "processing",
  "08033333333": "processing",
  "08044444444": "fail",
};

/** Smart card / IUC and meter numbers that force a failure (refunded at once). */
export const VTU_FAILING_NUMBERS = new Set(["0000000000", "00000000000"]);

export function vtuOutcome(details: Record<string, string | number | null>): VtuOutcome {
  const phone = typeof details.phone === "string" ? localPhone(details.phone) : null;
  if (phone && VTU_MAGIC_PHONES[phone]) return VTU_MAGIC_PHONES[phone];
  for (const key of ["smart_card_number", "meter_number"] as const) {
    const value = details[key];
    if (typeof value === "string" && VTU_FAILING_NUMBERS.has(value)) return "fail";
  }
  return "success";
}

/** 2348011111111 and +2348011111111 are 08011111111. */
export function localPhone(phone: string): string {
  const digits = phone.replace(/^\+/, "");
  return digits.startsWith("234") ? `0${digits.slice(3)}` : digits;
}
