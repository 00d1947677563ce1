/**
 * Copy buttons (`<button data-copy="value" data-label="account number">`), wherever the page has one,
 * now or after a live change: the value goes to the clipboard, the button says "Copied" for a moment,
 * and a polite live region tells a screen reader what was copied (or how to copy it by hand).
 */
const COPIED_FOR_MS = 2000;

export function bindCopyButtons(note: HTMLElement): void {
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>("button[data-copy]") : null;
    if (!button) return;
    const value = button.dataset.copy ?? "";
    const label = button.dataset.label ?? "value";
    const text = button.querySelector(".copy-text");
    navigator.clipboard.writeText(value).then(
      () => {
        if (text) text.textContent = "Copied";
        note.textContent = `${label.charAt(0).toUpperCase()}${label.slice(1)} copied`;
        window.setTimeout(() => {
          if (text) text.textContent = "Copy";
        }, COPIED_FOR_MS);
      },
      () => {
        note.textContent = `Could not copy: select the ${label} and copy it yourself`;
      },
    );
  });
}
