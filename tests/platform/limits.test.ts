import type { ZodTypeAny } from "zod";
import { describe, expect, it } from "vitest";
import { LIMITS, type LimitName } from "~/lib/limits";
import {
  applyInputSchema,
  cancelInputSchema,
  changeRequestInputSchema,
  deliveryInputSchema,
  messageInputSchema,
  offerInputSchema,
  opportunityPatchSchema,
  rejectInputSchema,
} from "~/lib/market-schemas";
import { portfolioItemSchema, profileSchema } from "~/lib/schemas";
import { inviteInputSchema } from "~/lib/market-schemas";
import { replyInputSchema, reviewInputSchema } from "~/lib/review-schemas";

// The schemas take their lengths from LIMITS, the table the forms' maxLength comes from: text at
// exactly the limit passes, one character more (or less) is refused.
const fields: [LimitName, ZodTypeAny][] = [
  ["full_name", profileSchema.shape.full_name],
  ["display_name", profileSchema.shape.display_name],
  ["bio", profileSchema.shape.bio],
  ["city", profileSchema.shape.city],
  ["portfolio_title", portfolioItemSchema.shape.title],
  ["portfolio_description", portfolioItemSchema.shape.description],
  ["title", opportunityPatchSchema.shape.title],
  ["description", opportunityPatchSchema.shape.description],
  ["cover_letter", applyInputSchema.shape.cover_letter],
  ["offer_message", offerInputSchema.shape.message],
  ["reject_message", rejectInputSchema.shape.message],
  ["delivery_message", deliveryInputSchema.shape.message],
  ["change_request_message", changeRequestInputSchema.shape.message],
  ["cancel_reason", cancelInputSchema.shape.reason],
  ["message_body", messageInputSchema.shape.body],
  ["review_comment", reviewInputSchema.shape.comment],
  ["review_reply", replyInputSchema.shape.reply],
  ["invite_message", inviteInputSchema.shape.message],
];

describe("field limits", () => {
  it.each(fields)("%s follows LIMITS", (name, schema) => {
    const { min, max } = LIMITS[name];
    expect(schema.safeParse("a".repeat(max)).success).toBe(true);
    expect(schema.safeParse("a".repeat(max + 1)).success).toBe(false);
    if (min > 1) {
      expect(schema.safeParse("a".repeat(min)).success).toBe(true);
      expect(schema.safeParse("a".repeat(min - 1)).success).toBe(false);
    }
  });
});
