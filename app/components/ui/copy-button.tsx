import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/lib/hydrated";

/**
 * A button that copies `text` to the clipboard and says so (`copiedLabel`, "Copiado" by default).
 * It needs JavaScript, so it is drawn only once the page has it: without it, the text beside it
 * stays selectable.
 */
export function CopyButton({
  text,
  label,
  copiedLabel,
  className = "btn btn-secondary btn-sm",
}: {
  text: string;
  label?: string;
  copiedLabel?: string;
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
      <span aria-live="polite">{copied ? (copiedLabel ?? t("actions.copied")) : (label ?? t("actions.copy"))}</span>
    </button>
  );
}

/**
 * Shares a link: the system's share sheet where the browser has one (Web Share API, on phones),
 * otherwise a copy button. Without JavaScript, nothing: the link beside it is plain text and a link.
 */
export function ShareButton({ url, title }: { url: string; title?: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  if (!hydrated) return null;
  if (typeof navigator.share !== "function") return <CopyButton text={url} label={t("actions.copy_link")} />;
  return (
    <button
      type="button"
      className="btn btn-secondary btn-sm"
      onClick={() => {
        // A cancelled share sheet rejects: nothing to say.
        navigator.share({ url, title }).catch(() => undefined);
      }}
    >
      {t("actions.share")}
    </button>
  );
}
