/**
 * Where an action's result is said: its section's result slot (else the page's toast), which takes the
 * focus, because the control that was used may be replaced by the refresh the action causes.
 */
export function resultSlot(origin: Element | null): HTMLElement {
  const section = origin?.closest("section.card");
  return (section?.querySelector<HTMLElement>(".action-result") ?? document.getElementById("toast"))!;
}

export type Kind = "notice" | "success" | "error";

export function show(slot: HTMLElement, kind: Kind | "", text: string, focus: boolean): void {
  slot.className = (slot.id === "toast" ? "" : "action-result ") + kind;
  slot.textContent = text;
  if (focus) {
    slot.setAttribute("tabindex", "-1");
    slot.focus();
  }
}

export function clearResults(): void {
  document.querySelectorAll<HTMLElement>(".action-result").forEach((slot) => {
    slot.className = "action-result";
    slot.textContent = "";
  });
}
