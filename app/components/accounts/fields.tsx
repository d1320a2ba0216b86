import type { InputHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { Field, fieldsOf } from "~/components/ui/form";
import { LIMITS } from "~/lib/limits";
import type { FormErrorData } from "~/web/errors.server";

/**
 * The e-mail of the visitor forms (sign-in, registration, reset request), kept when refused;
 * `fallback` fills it in otherwise (the address just registered, on the sign-in page).
 */
export function EmailField({ data, fallback }: { data?: FormErrorData | null; fallback?: string }) {
  const { t } = useTranslation();
  return (
    <Field
      {...fieldsOf(data)("email", fallback)}
      type="email"
      label={t("fields.email")}
      autoComplete="email"
      required
    />
  );
}

/**
 * A password, never typed back into the page: the current one to sign in, or a `fresh` one (with
 * its rule) to register or to reset.
 */
export function PasswordField({
  data,
  fresh = false,
  label,
  hint,
  id,
}: {
  data?: FormErrorData | null;
  fresh?: boolean;
  label?: string;
  hint?: string;
  /** Where the page has more than one password field. */
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <Field
      name="password"
      id={id}
      type="password"
      label={label ?? t("fields.password")}
      autoComplete={fresh ? "new-password" : "current-password"}
      required
      minLength={fresh ? LIMITS.password.min : undefined}
      hint={hint ?? (fresh ? t("fields.password_hint") : undefined)}
      error={data?.errors?.password}
    />
  );
}

/**
 * The code of the authenticator app (or a recovery code) that confirms a sensitive move, never
 * typed back into the page.
 */
export function CodeField({
  data,
  label,
  hint,
  ...input
}: {
  data?: FormErrorData | null;
  id: string;
  label?: string;
  hint?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "name">) {
  const { t } = useTranslation("account");
  return (
    <Field
      name="code"
      label={label ?? t("two_factor.code")}
      hint={hint}
      error={data?.errors?.code}
      autoComplete="one-time-code"
      required
      {...input}
    />
  );
}
