import { z } from "zod";
import type { UserRow } from "../../../db/schema";
import { AppError, parseInput } from "../platform/errors.server";
import { assertSecondFactor, codeField, isTwoFactorOn } from "./two-factor.server";
import { assertPassword } from "./verification.server";

// A fresh proof that the person at the keyboard owns the account, asked before a change that
// would let whoever holds the session keep the account after losing it (docs/product.md, "Contas
// e sessões"): adding a passkey, deleting the account. Being signed in is not enough: a stolen session would
// register its own way in. The proof is the current password and, when two-factor is on, a code
// of the authenticator app (or a recovery code); wrong answers count against the account's
// attempt limit like wrong sign-ins (5 per 15 minutes, taken before they are judged).

/** `{ password, code? }`: an empty form field is no code. Other fields of the input are left aside. */
export const freshProofSchema = z.object({
  password: z
    .string({ required_error: "password_required", invalid_type_error: "password_required" })
    .min(1, "password_required")
    .max(1_024, "password_length"),
  code: z.preprocess((v) => (v === "" || v === null ? undefined : v), codeField.optional()),
});

/**
 * Checks `{ password, code? }` for `user`: 422 under `errorKey` with the field at fault (the code
 * is required when two-factor is on), 429 past the attempt limit. Returns nothing when proved.
 */
export async function assertFreshProof(user: UserRow, input: unknown, errorKey: string) {
  const { password, code } = parseInput(freshProofSchema, input, errorKey);
  const twoFactor = await isTwoFactorOn(user.id);
  if (twoFactor && !code) throw new AppError(422, errorKey, { code: "two_factor_code_required" });
  try {
    await assertPassword(user, password);
  } catch (error) {
    if (error instanceof AppError && error.status === 422) throw new AppError(422, errorKey, error.fieldErrors);
    throw error;
  }
  if (twoFactor) await assertSecondFactor(user, code!, errorKey);
}
