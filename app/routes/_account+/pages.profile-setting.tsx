import { formatCnpj } from "@brazilian-utils/brazilian-utils";
import { LIMITS } from "~/lib/limits";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import { Field, fieldsOf, FieldsForm, FormActions, FormCard, SelectField, TextAreaField } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { updateProfile } from "~/services/accounts/accounts.server";
import { requireUser } from "~/web/auth.server";
import { emailSettingsFromForm } from "~/web/bodies.server";
import { getEmailSettings, updateEmailSettings } from "~/services/messaging/email.server";
import { fileOf, formValues, profileInput, readPhotoForm } from "~/web/bodies.server";
import { formError } from "~/web/errors.server";
import {
  addPortfolioItem,
  deletePortfolioItem,
  listPortfolio,
  updatePortfolioItem,
} from "~/services/reputation/portfolio.server";
import { PortfolioEditor } from "~/components/reputation/portfolio";
import { getRequestT } from "~/web/i18n.server";
import { redirectWithSuccess } from "~/web/toast.server";
import { useRootData } from "~/lib/root-data";
import { emailKindGroupsFor } from "~/lib/email-kinds";
import { supportedLngs } from "~/lib/i18n";
import { usePending } from "~/lib/pending";

export const meta = titleMeta("titles.profile_settings");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [email, portfolio] = await Promise.all([
    getEmailSettings(user),
    user.account_type === "freelancer" ? listPortfolio(user.id) : Promise.resolve([]),
  ]);
  return json({ email, portfolio });
}

const PORTFOLIO_DONE = {
  add: "portfolio_item_added",
  update: "portfolio_item_updated",
  remove: "portfolio_item_deleted",
} as const;

/** The forms that post here: the profile (multipart, with the photo), the e-mail settings (intent=email), the portfolio's items. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  let values: Record<string, string> = {};
  try {
    // Both kinds of form may carry a picture: the profile's photo or a portfolio item's image.
    const form = await readPhotoForm(request, new URL(request.url).searchParams.has("portfolio") ? "image" : "photo");
    const intent = form.get("intent");
    if (intent === "email") {
      values = { intent: "email" };
      await updateEmailSettings(user, emailSettingsFromForm(form, user.account_type));
      const { t } = await getRequestT(request);
      return redirectWithSuccess("/pages/profile-setting#email", t("email_settings_saved"));
    }
    if (intent === "portfolio_add" || intent === "portfolio_update" || intent === "portfolio_remove") {
      values = formValues(form);
      const id = values.id ?? "";
      if (intent === "portfolio_add") await addPortfolioItem(user, values, fileOf(form, "image"));
      else if (intent === "portfolio_update") await updatePortfolioItem(user, id, values, fileOf(form, "image"));
      else await deletePortfolioItem(user, id);
      const { t } = await getRequestT(request);
      const done = PORTFOLIO_DONE[intent.slice("portfolio_".length) as keyof typeof PORTFOLIO_DONE];
      return redirectWithSuccess("/pages/profile-setting#portfolio", t(done));
    }
    const { input, photo } = profileInput(form);
    values = Object.fromEntries(
      Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v)]),
    );
    await updateProfile(user, input, photo);
    const { t } = await getRequestT(request);
    return redirectWithSuccess("/profile", t("profile_updated"));
  } catch (error) {
    return formError(request, error, values);
  }
}

export default function ProfileSettingsPage() {
  const { t } = useTranslation();
  const user = useRootData()?.user;
  const refusal = useActionData<typeof action>();
  const { portfolio } = useLoaderData<typeof loader>();
  // A refusal belongs to the form that was sent.
  const emailRefused = refusal?.values?.intent === "email";
  const portfolioRefusal = refusal?.values?.intent?.startsWith("portfolio_") ? refusal : undefined;
  const data = portfolioRefusal || emailRefused ? undefined : refusal;
  const busy = usePending(null);
  if (!user) return null;
  const field = fieldsOf(data);
  const remote = data?.values?.remote !== undefined ? ["1", "on", "true"].includes(data.values.remote) : user.remote;
  const shown =
    data?.values?.public_profile !== undefined
      ? ["1", "on", "true"].includes(data.values.public_profile)
      : user.public_profile;
  return (
    <div className="page">
      <section className="card form-card">
        <h2>{t("titles.profile_settings")}</h2>
        <FieldsForm id="profile-form" data={data} encType="multipart/form-data" className="stack">
          <div className={`field photo-field${data?.errors?.photo ? " has-error" : ""}`}>
            <Avatar user={user} size="lg" />
            <div>
              <label htmlFor="photo">{t("fields.photo")}</label>
              <input
                id="photo"
                name="photo"
                type="file"
                accept="image/jpeg,image/png,image/webp"
                aria-describedby={data?.errors?.photo ? "photo-error" : "photo-hint"}
              />
              {data?.errors?.photo ? (
                <p className="field-error" id="photo-error">
                  {data.errors.photo}
                </p>
              ) : (
                <p className="field-hint" id="photo-hint">
                  {t("fields.photo_hint")}
                </p>
              )}
            </div>
          </div>
          <div className="grid-2">
            <Field
              {...field("full_name", user.full_name ?? "")}
              label={t("fields.full_name")}
              required
              maxLength={LIMITS.full_name.max}
            />
            <Field
              {...field("display_name", user.display_name ?? "")}
              label={t("fields.display_name_optional")}
              maxLength={LIMITS.display_name.max}
            />
          </div>
          <TextAreaField
            {...field("bio", user.bio ?? "")}
            label={t("fields.bio")}
            rows={5}
            maxLength={LIMITS.bio.max}
          />
          {user.account_type === "merchant" ? (
            <>
              {/* A merchant hires: their company, not the skills and remote work a freelancer offers. */}
              <div className="grid-2">
                <Field
                  {...field("company_name", user.company_name ?? "")}
                  label={t("fields.company_name_optional")}
                  hint={t("fields.company_name_hint")}
                  maxLength={LIMITS.company_name.max}
                  autoComplete="organization"
                />
                <Field
                  {...field("company_cnpj", user.company_cnpj ? formatCnpj(user.company_cnpj) : "")}
                  label={t("fields.company_cnpj_optional")}
                  hint={t("fields.company_cnpj_hint")}
                  inputMode="numeric"
                  maxLength={18}
                />
              </div>
              <Field
                {...field("city", user.city ?? "")}
                label={t("fields.city_optional")}
                maxLength={LIMITS.city.max}
                autoComplete="address-level2"
              />
            </>
          ) : (
            <>
              <Field
                {...field("skills", user.skills.join(", "))}
                label={t("fields.skills")}
                hint={t("fields.skills_hint")}
              />
              <div className="grid-2">
                <Field
                  {...field("city", user.city ?? "")}
                  label={t("fields.city_optional")}
                  maxLength={LIMITS.city.max}
                  autoComplete="address-level2"
                />
                <div className="field field-check">
                  {/* Unticked boxes send nothing: the hidden field says "no" unless the box follows it. */}
                  <input type="hidden" name="remote" value="0" />
                  <label>
                    <input type="checkbox" name="remote" value="1" defaultChecked={remote} /> {t("fields.remote")}
                  </label>
                </div>
              </div>
            </>
          )}
          {user.account_type === "freelancer" ? (
            <div className="field field-check">
              <input type="hidden" name="public_profile" value="0" />
              <label>
                <input
                  type="checkbox"
                  name="public_profile"
                  value="1"
                  defaultChecked={shown}
                  aria-describedby="public-profile-hint"
                />{" "}
                {t("fields.public_profile")}
              </label>
              <p className="field-hint" id="public-profile-hint">
                {t("fields.public_profile_hint")}
              </p>
            </div>
          ) : null}
          <FormActions busy={busy} label={t("actions.save")} busyLabel={t("actions.saving")}>
            <Link to="/profile" className="btn btn-ghost">
              {t("actions.cancel")}
            </Link>
          </FormActions>
        </FieldsForm>
      </section>
      {user.account_type === "freelancer" ? <PortfolioEditor items={portfolio} refusal={portfolioRefusal} /> : null}
      <EmailSettings
        role={user.account_type === "merchant" ? "merchant" : "freelancer"}
        refusal={emailRefused ? refusal : undefined}
      />
    </div>
  );
}

/** Checkboxes per kind of e-mail, in groups, and the e-mails' language: a plain form. */
function EmailSettings({
  role,
  refusal,
}: {
  role: "merchant" | "freelancer";
  refusal?: { message?: string; errors?: Record<string, string> };
}) {
  const { t } = useTranslation("market");
  const { email } = useLoaderData<typeof loader>();
  const busy = usePending("email");
  return (
    <FormCard
      name="email-settings"
      id="email"
      className="card form-card"
      heading="h2"
      title={t("email_settings.title")}
      intro={t("email_settings.intro")}
      refusal={refusal}
      intent="email"
    >
      {emailKindGroupsFor(role).map(({ group, kinds }) => (
        <fieldset key={group} className="field email-kinds">
          <legend>{t(`email_settings.groups.${group}`)}</legend>
          {kinds.map((kind) => (
            <label key={kind} className="checkbox-line">
              <input type="checkbox" name="kinds" value={kind} defaultChecked={email.kinds[kind]} />{" "}
              {t(`email_settings.kinds.${kind}`)}
            </label>
          ))}
        </fieldset>
      ))}
      <SelectField
        id="email-locale"
        name="locale"
        label={t("email_settings.locale")}
        options={supportedLngs.map((lng) => ({ value: lng, label: t(`email_settings.locales.${lng}`) }))}
        // No locale stored means Portuguese: one entry for it, not a "default" beside it.
        value={email.locale ?? "pt-BR"}
        error={refusal?.errors?.locale}
      />
      <FormActions busy={busy} label={t("email_settings.save")} />
    </FormCard>
  );
}
