import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/lib/hydrated";

/**
 * A button that copies `text` to the clipboard and says so. It needs JavaScript, so it is drawn
 * only once the page has it: without it, the text beside it stays selectable.
 */
export function CopyButton({
  text,
  label,
  className = "btn btn-secondary btn-sm",
}: {
  text: string;
  label?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setCopied(true));
      }}
    >
      <span aria-live="polite">{copied ? t("actions.copied") : (label ?? t("actions.copy"))}</span>
    </button>
  );
}
