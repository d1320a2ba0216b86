import { LIMITS } from "~/lib/limits";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { fieldsOf, FormActions, FormMessage, TextAreaField, useRefusal } from "~/components/ui/form";
import { formatDate } from "~/lib/format";
import { Pagination, type PageMeta } from "~/components/ui/pagination";
import { Stars } from "./rating";
import { usePending } from "~/lib/pending";

export type ReviewData = {
  id: string;
  author: { id: string; display_name: string | null; role: string };
  rating: number;
  comment: string;
  reply: string | null;
  published: boolean;
  publish_due_at: string;
  published_at: string | null;
  created_at: string;
  opportunity_title?: string;
};

export function ReviewItem({ review, replyTitle }: { review: ReviewData; replyTitle?: string }) {
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
      {review.comment ? <p className="prewrap">{review.comment}</p> : null}
      {review.reply ? (
        <div className="review-reply">
          <strong>{replyTitle ?? t("reviews.reply_title")}</strong>
          <p className="prewrap">{review.reply}</p>
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
export function ContractReviewsSection({ reviews, otherName }: { reviews: ContractReviews; otherName: string }) {
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
          <FormMessage data={mine} />
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value="review" />
            <fieldset
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
              {...fieldsOf(mine)("comment")}
              label={t("reviews.comment")}
              hint={t("reviews.comment_hint")}
              rows={4}
              maxLength={LIMITS.review_comment.max}
            />
            <FormActions busy={reviewing} label={t("reviews.submit")} />
          </Form>
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
          <ReviewItem review={reviews.mine} replyTitle={t("reviews.their_reply", { name: otherName })} />
        </div>
      ) : !reviews.can_review ? (
        <p className="muted">{t("reviews.window_closed")}</p>
      ) : null}
      {reviews.theirs ? (
        <div className="stack">
          <h4>{t("reviews.theirs", { name: otherName })}</h4>
          <ReviewItem review={reviews.theirs} replyTitle={t("reviews.my_reply")} />
          {reviews.can_reply ? (
            <Form method="post" className="stack" noValidate>
              <input type="hidden" name="intent" value="reply" />
              <input type="hidden" name="review_id" value={reviews.theirs.id} />
              <FormMessage data={replying} />
              <TextAreaField
                {...fieldsOf(replying)("reply")}
                label={t("reviews.reply")}
                hint={t("reviews.reply_hint")}
                rows={3}
                maxLength={LIMITS.review_reply.max}
                required
              />
              <FormActions busy={sendingReply} label={t("reviews.reply_submit")} className="btn btn-secondary" />
            </Form>
          ) : null}
        </div>
      ) : reviews.theirs_written && reviews.mine ? null : reviews.theirs_written ? (
        <p className="muted">{t("reviews.theirs_hidden", { name: otherName })}</p>
      ) : null}
    </section>
  );
}

/** A profile's published reviews, one page, with the pages' links. */
export function ProfileReviews({ reviews, meta }: { reviews: ReviewData[]; meta: PageMeta }) {
  const { t } = useTranslation("market");
  return (
    <section className="card" aria-labelledby="profile-reviews-title">
      <h3 id="profile-reviews-title">{t("reviews.profile_heading")}</h3>
      {reviews.length ? (
        <div className="stack">
          {reviews.map((r) => (
            <ReviewItem key={r.id} review={r} />
          ))}
        </div>
      ) : (
        <p className="muted">{t("reviews.profile_empty")}</p>
      )}
      <Pagination meta={meta} />
    </section>
  );
}
