import { useTranslation } from "react-i18next";
import { formatRating } from "~/lib/format";

// Ratings as lists and cards show them: apart from the review forms and lists (./reviews), so
// pages that only show a rating (the opportunity list, applications) do not load those.

export type RatingData = { average: number | null; count: number };

/** ★★★★☆ with its value in words for screen readers. */
export function Stars({ value }: { value: number }) {
  const { t, i18n } = useTranslation("market");
  const full = Math.round(value);
  return (
    <span
      className="stars"
      role="img"
      aria-label={t("reviews.stars", {
        value: Number.isInteger(value) ? String(value) : formatRating(value, i18n.language),
        count: value,
      })}
    >
      {"★".repeat(full)}
      <span className="stars-off">{"★".repeat(5 - full)}</span>
    </span>
  );
}

/** "4,5 ★ (12 avaliações)", or "Sem avaliações ainda". */
export function RatingSummary({ rating }: { rating: RatingData }) {
  const { t, i18n } = useTranslation("market");
  if (!rating.count || rating.average === null) return <span className="rating rating-none">{t("reviews.none")}</span>;
  return (
    <span className="rating">
      <Stars value={rating.average} /> <strong>{formatRating(rating.average, i18n.language)}</strong>{" "}
      <span className="muted">{t("reviews.count", { count: rating.count })}</span>
    </span>
  );
}
