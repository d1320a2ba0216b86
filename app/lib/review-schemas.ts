import { z } from "zod";
import { LIMITS } from "./limits";
import { text } from "./schemas";

// Input schemas of reviews, shared by the contract's page (its fields) and the service (which
// parses them). Messages are keys of the `messages` namespace.

const toInt = (v: unknown) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v);

export const reviewInputSchema = z.object({
  rating: z.preprocess(
    toInt,
    z
      .number({ required_error: "review_rating_invalid", invalid_type_error: "review_rating_invalid" })
      .int("review_rating_invalid")
      .min(1, "review_rating_invalid")
      .max(5, "review_rating_invalid"),
  ),
  comment: z.preprocess(
    (v) => v ?? "",
    text("review_comment_length", LIMITS.review_comment.min, LIMITS.review_comment.max),
  ),
});

export const replyInputSchema = z.object({
  reply: text("review_reply_length", LIMITS.review_reply.min, LIMITS.review_reply.max, "review_reply_required"),
});
