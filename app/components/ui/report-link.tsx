import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ReportTargetType } from "~/lib/moderation";

/** "Denunciar": the report form for this content, coming back to `back` afterwards. */
export function ReportLink({ type, id, back }: { type: ReportTargetType; id: string; back: string }) {
  const { t } = useTranslation("market");
  const href = `/report?${new URLSearchParams({ type, id, back })}`;
  return (
    <Link
      to={href}
      className="link small report-link"
      rel="nofollow"
      aria-label={t("moderation.report_label", { what: t(`moderation.targets.${type}`) })}
    >
      {t("moderation.report")}
    </Link>
  );
}
