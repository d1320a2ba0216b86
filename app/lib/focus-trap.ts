import { useEffect, useRef, type RefObject } from "react";

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  'input:not([disabled]):not([type="hidden"])',
  "select:not([disabled])",
  "textarea:not([disabled])",
  "summary",
  '[tabindex]:not([tabindex="-1"])',
].join(",");

// Open traps, the latest last: only the latest one answers the keyboard (the mobile menu opened
// over a confirmation step, say).
const stack: object[] = [];

/** The elements of `root` that Tab can reach, in document order. */
function tabbable(root: HTMLElement) {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden",
  );
}

/**
 * Keeps the keyboard inside `ref` while `active`: focus moves in when it opens, Tab and
 * Shift+Tab wrap around its controls, Escape calls `onEscape`. When it closes (or unmounts),
 * focus goes to what `returnTo` names, if it is still on the page.
 */
export function useFocusTrap(
  ref: RefObject<HTMLElement>,
  active: boolean,
  { onEscape, returnTo }: { onEscape: () => void; returnTo: () => HTMLElement | null | undefined },
) {
  const callbacks = useRef({ onEscape, returnTo });
  callbacks.current = { onEscape, returnTo };

  useEffect(() => {
    const root = ref.current;
    if (!active || !root) return;
    const token = {};
    stack.push(token);
    if (!root.contains(document.activeElement)) (tabbable(root)[0] ?? root).focus();

    function onKeyDown(event: KeyboardEvent) {
      if (stack[stack.length - 1] !== token || !root) return;
      if (event.key === "Escape") {
        event.preventDefault();
        callbacks.current.onEscape();
        return;
      }
      if (event.key !== "Tab") return;
      const items = tabbable(root);
      const first = items[0];
      const last = items[items.length - 1];
      const current = document.activeElement;
      if (!first || !last) {
        event.preventDefault();
        return;
      }
      if (!root.contains(current)) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      } else if (event.shiftKey && current === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && current === last) {
        event.preventDefault();
        first.focus();
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      stack.splice(stack.indexOf(token), 1);
      // After the render that closed it, when the element to go back to is in place; unless
      // focus has gone somewhere else meanwhile (a click elsewhere, the next panel).
      setTimeout(() => {
        const now = document.activeElement;
        if (now && now !== document.body && !root.contains(now)) return;
        const target = callbacks.current.returnTo();
        if (target?.isConnected) target.focus();
      });
    };
  }, [active, ref]);
}
