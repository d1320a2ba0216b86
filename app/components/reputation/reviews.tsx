import { formFields } from "~/lib/form-fields";
import { replyInputSchema, reviewInputSchema } from "~/lib/review-schemas";
import { useTranslation } from "react-i18next";
import { FieldsForm, FormActions, TextAreaField, useRefusal } from "~/components/ui/form";
import { formatDate } from "~/lib/format";
import { Pagination, type PageMeta } from "~/components/ui/pagination";
import { Stars } from "./rating";
import { ReportLink } from "~/components/ui/report-link";
import { usePending } from "~/lib/pending";

export type ReviewData = {
  id: string;
  author: { id: string; display_name: string | null; role: string };
  rating: number;
  comment: string;
  reply: string | null;
  /** Hidden by an operator (why: for its author only); the reply likewise. */
  hidden?: boolean;
  hidden_reason?: string | null;
  reply_hidden?: boolean;
  reply_hidden_reason?: string | null;
  published: boolean;
  publish_due_at: string;
  published_at: string | null;
  created_at: string;
  opportunity_title?: string;
};

/**
 * One review and its reply. `report`: where the viewer comes back to after reporting, and what
 * they may report (a review written by someone else, a reply written by someone else).
 */
export function ReviewItem({
  review,
  replyTitle,
  report,
}: {
  review: ReviewData;
  replyTitle?: string;
  report?: { back: string; review?: boolean; reply?: boolean };
}) {
  const { t, i18n } = useTranslation("market");
  return (
    <article className="review">
      <header className="review-head">
        <Stars value={review.rating} />
        <strong>{review.author.display_name}</strong>
        {review.published_at ? (
          <time dateTime={review.published_at} className="muted">
            {formatDate(review.published_at, i18n.language)}
          </time>
        ) : null}
      </header>
      {review.opportunity_title ? <p className="muted review-about">{review.opportunity_title}</p> : null}
      {review.hidden ? (
        <p className="muted">
          <em>{t("moderation.hidden_review")}</em>
          {review.hidden_reason ? ` ${t("moderation.why", { reason: review.hidden_reason })}` : null}
        </p>
      ) : review.comment ? (
        <p className="prewrap">{review.comment}</p>
      ) : null}
      {report?.review && review.published && !review.hidden ? (
        <ReportLink type="review" id={review.id} back={report.back} />
      ) : null}
      {review.reply ? (
        <div className="review-reply">
          <strong>{replyTitle ?? t("reviews.reply_title")}</strong>
          <p className="prewrap">{review.reply}</p>
          {report?.reply ? <ReportLink type="reply" id={review.id} back={report.back} /> : null}
        </div>
      ) : review.reply_hidden ? (
        <div className="review-reply">
          <strong>{replyTitle ?? t("reviews.reply_title")}</strong>
          <p className="muted">
            <em>{t("moderation.hidden_reply")}</em>
            {review.reply_hidden_reason ? ` ${t("moderation.why", { reason: review.reply_hidden_reason })}` : null}
          </p>
        </div>
      ) : null}
    </article>
  );
}

type ContractReviews = {
  eligible: boolean;
  closes_at: string | null;
  can_review: boolean;
  mine: ReviewData | null;
  theirs: ReviewData | null;
  theirs_written: boolean;
  can_reply: boolean;
};

/** The contract page's reviews: the form while the window is open, then both reviews and the reply. */
export function ContractReviewsSection({
  reviews,
  otherName,
  here,
}: {
  reviews: ContractReviews;
  otherName: string;
  /** The contract page, where a report comes back to. */
  here: string;
}) {
  const { t, i18n } = useTranslation("market");
  const reviewing = usePending("review");
  const sendingReply = usePending("reply");
  const mine = useRefusal("review");
  const replying = useRefusal("reply");
  if (!reviews.eligible) return null;
  const closes = reviews.closes_at ? formatDate(reviews.closes_at, i18n.language) : "";
  return (
    <section className="card" aria-labelledby="reviews-title">
      <h3 id="reviews-title">{t("reviews.heading")}</h3>
      {reviews.can_review ? (
        <>
          <p className="muted">
            {t(reviews.theirs_written ? "reviews.intro_theirs_written" : "reviews.intro", {
              name: otherName,
              date: closes,
            })}
          </p>
          <FieldsForm id="review-form" data={mine} className="stack">
            <input type="hidden" name="intent" value="review" />
            <fieldset
              id="rating"
              className={`field stars-field${mine?.errors?.rating ? " has-error" : ""}`}
              aria-describedby={mine?.errors?.rating ? "rating-error" : undefined}
            >
              <legend>{t("reviews.rating")}</legend>
              <div className="stars-input">
                {[1, 2, 3, 4, 5].map((n) => (
                  <label key={n}>
                    <input
                      type="radio"
                      name="rating"
                      value={n}
                      required
                      defaultChecked={mine?.values?.rating === String(n)}
                    />
                    {t("reviews.option", { count: n })}
                  </label>
                ))}
              </div>
              {mine?.errors?.rating ? (
                <p className="field-error" id="rating-error">
                  {mine.errors.rating}
                </p>
              ) : null}
            </fieldset>
            <TextAreaField
              {...formFields(reviewInputSchema, mine).comment}
              label={t("reviews.comment")}
              hint={t("reviews.comment_hint")}
              rows={4}
            />
            <FormActions busy={reviewing} label={t("reviews.submit")} />
          </FieldsForm>
        </>
      ) : null}
      {reviews.mine ? (
        <div className="stack">
          <h4>{t("reviews.mine")}</h4>
          {!reviews.mine.published ? (
            <p className="notice notice-info">
              {t("reviews.hidden_until", {
                name: otherName,
                date: formatDate(reviews.mine.publish_due_at, i18n.language),
              })}
            </p>
          ) : null}
          <ReviewItem
            review={reviews.mine}
            replyTitle={t("reviews.their_reply", { name: otherName })}
            report={{ back: here, reply: true }}
          />
        </div>
      ) : !reviews.can_review ? (
        <p className="muted">{t("reviews.window_closed")}</p>
      ) : null}
      {reviews.theirs ? (
        <div className="stack">
          <h4>{t("reviews.theirs", { name: otherName })}</h4>
          <ReviewItem
            review={reviews.theirs}
            replyTitle={t("reviews.my_reply")}
            report={{ back: here, review: true }}
          />
          {reviews.can_reply ? (
            <FieldsForm id="reply-form" data={replying} className="stack">
              <input type="hidden" name="intent" value="reply" />
              <input type="hidden" name="review_id" value={reviews.theirs.id} />
              <TextAreaField
                {...formFields(replyInputSchema, replying).reply}
                label={t("reviews.reply")}
                hint={t("reviews.reply_hint")}
                rows={3}
              />
              <FormActions busy={sendingReply} label={t("reviews.reply_submit")} className="btn btn-secondary" />
            </FieldsForm>
          ) : null}
        </div>
      ) : reviews.theirs_written && reviews.mine ? null : reviews.theirs_written ? (
        <p className="muted">{t("reviews.theirs_hidden", { name: otherName })}</p>
      ) : null}
    </section>
  );
}

/** A profile's published reviews, one page, with the pages' links. */
export function ProfileReviews({
  reviews,
  meta,
  viewerId,
  back,
}: {
  reviews: (ReviewData & { subject_id?: string })[];
  meta: PageMeta;
  /** Who reads the profile: they may report the reviews and replies not their own. */
  viewerId: string;
  back: string;
}) {
  const { t } = useTranslation("market");
  return (
    <section className="card" aria-labelledby="profile-reviews-title">
      <h3 id="profile-reviews-title">{t("reviews.profile_heading")}</h3>
      {reviews.length ? (
        <div className="stack">
          {reviews.map((r) => (
            <ReviewItem
              key={r.id}
              review={r}
              report={{ back, review: r.author.id !== viewerId, reply: r.subject_id !== viewerId }}
            />
          ))}
        </div>
      ) : (
        <p className="muted">{t("reviews.profile_empty")}</p>
      )}
      <Pagination meta={meta} />
    </section>
  );
}
