import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PasswordField } from "~/components/accounts/fields";
import { Field, fieldsOf, FormActions, FormMessage } from "~/components/ui/form";
import { usePending } from "~/lib/pending";
import type { FormErrorData } from "~/web/errors.server";
import type { HeldMoney } from "~/services/accounts/deletion.server";
import { formatMoney } from "~/lib/money";

export type DeletionState = {
  /** Why the account cannot be deleted now (the reason, translated); null: it can. */
  blocker: string | null;
  /** The balances that block it (money held), each with where it is. */
  held: HeldMoney[];
  /** Two-factor is on: a code of the app or a recovery code is asked too. */
  twoFactor: boolean;
};

/**
 * "Excluir conta" on the security page: what goes and what stays, then the password (never typed
 * back), the second factor when two-factor is on, and a box to tick. While the account cannot be
 * deleted, the reason instead of the form.
 */
export function DeleteAccountSection({ state, refusal }: { state: DeletionState; refusal?: FormErrorData | null }) {
  const { t, i18n } = useTranslation("account");
  const busy = usePending("account_delete");
  const field = fieldsOf(refusal);
  const confirmError = refusal?.errors?.confirm;
  return (
    <section className="card form-card" id="delete-account" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">{t("delete_account.title")}</h2>
      <p>{t("delete_account.intro")}</p>
      <div className="grid-2">
        <div>
          <h3>{t("delete_account.erased_title")}</h3>
          <p className="muted">{t("delete_account.erased")}</p>
        </div>
        <div>
          <h3>{t("delete_account.kept_title")}</h3>
          <p className="muted">{t("delete_account.kept")}</p>
        </div>
      </div>
      {state.blocker ? (
        <div className="notice notice-warning" role="status">
          <p>{state.blocker}</p>
          {state.held.length ? (
            <ul className="held-money">
              {state.held.map((h) => (
                <li key={`${h.kind}-${h.contract_id ?? ""}`}>
                  {t(`delete_account.held.${h.kind}`, { amount: formatMoney(h.amount_cents, i18n.language) })}{" "}
                  <Link to={h.contract_id ? `/contracts/${h.contract_id}` : "/financeiro"} className="link">
                    {h.contract_id ? t("delete_account.held_contract") : t("delete_account.held_finance")}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : (
        <>
          <FormMessage data={refusal} />
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value="account_delete" />
            <div className="grid-2">
              <PasswordField data={refusal} id="delete-password" label={t("delete_account.password")} />
              {state.twoFactor ? (
                <Field
                  {...field("code")}
                  id="delete-code"
                  label={t("two_factor.code")}
                  hint={t("two_factor.code_hint")}
                  autoComplete="one-time-code"
                  inputMode="text"
                  required
                />
              ) : null}
            </div>
            <div className={`field field-check${confirmError ? " has-error" : ""}`}>
              <label>
                <input
                  type="checkbox"
                  name="confirm"
                  value="1"
                  defaultChecked={refusal?.values?.confirm === "1"}
                  aria-invalid={confirmError ? true : undefined}
                  aria-describedby={confirmError ? "delete-confirm-error" : undefined}
                  required
                />{" "}
                {t("delete_account.confirm")}
              </label>
              {confirmError ? (
                <p className="field-error" id="delete-confirm-error">
                  {confirmError}
                </p>
              ) : null}
            </div>
            <FormActions busy={busy} label={t("delete_account.submit")} className="btn btn-danger" />
          </Form>
        </>
      )}
    </section>
  );
}
