import { formatCnpj } from "@brazilian-utils/brazilian-utils";
import { formFields } from "~/lib/form-fields";
import { profileSchema } from "~/lib/schemas";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import { Field, FieldsForm, FormActions, FormCard, SelectField, TextAreaField } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { updateProfile } from "~/services/accounts/accounts.server";
import { requireUser } from "~/web/auth.server";
import { getEmailSettings, updateEmailSettings } from "~/services/messaging/email.server";
import { listSubscriptions, removeSubscription } from "~/services/messaging/push.server";
import { PushDevices } from "~/components/messaging/push-devices";
import { WhatsappCard } from "~/components/messaging/whatsapp-card";
import { addNumber, confirmNumber, getNumber, removeNumber, whatsappOn } from "~/services/messaging/whatsapp.server";
import { emailSettingsFromForm, fileOf, profileInput, readPhotoForm } from "~/web/bodies.server";
import { intentAction } from "~/web/intent-action.server";
import {
  addPortfolioItem,
  deletePortfolioItem,
  listPortfolio,
  updatePortfolioItem,
} from "~/services/reputation/portfolio.server";
import { PortfolioEditor } from "~/components/reputation/portfolio";
import { useRootData } from "~/lib/root-data";
import { emailKindGroupsFor, isWhatsappKind, type EmailKindName } from "~/lib/email-kinds";
import { supportedLngs } from "~/lib/i18n";
import { usePending } from "~/lib/pending";

export const meta = titleMeta("titles.profile_settings");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [email, devices, portfolio, number] = await Promise.all([
    getEmailSettings(user),
    listSubscriptions(user),
    user.account_type === "freelancer" ? listPortfolio(user.id) : Promise.resolve([]),
    // WhatsApp, only while it is on (docs/product.md, section 6): no statement otherwise.
    whatsappOn() ? getNumber(user) : Promise.resolve(null),
  ]);
  return json({ email, devices, portfolio, whatsapp: whatsappOn() ? { number } : null });
}

/** The forms that post here: the profile (multipart, with the photo), the e-mail settings, the portfolio's items. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const portfolio = (toast: string) => ({ toast, to: "/pages/profile-setting#portfolio" });
  return intentAction(
    request,
    {
      here: "/pages/profile-setting",
      // Both kinds of form may carry a picture: the profile's photo or a portfolio item's image.
      body: (request) => readPhotoForm(request, new URL(request.url).searchParams.has("portfolio") ? "image" : "photo"),
      toasts: "messages",
      // The profile's form names no intent.
      otherwise: {
        run: ({ form }) => {
          const { input, photo } = profileInput(form);
          return updateProfile(user, input, photo);
        },
        toast: "profile_updated",
        to: "/profile",
      },
    },
    {
      email: {
        run: ({ form }) => updateEmailSettings(user, emailSettingsFromForm(form, user.account_type)),
        toast: "email_settings_saved",
        to: "/pages/profile-setting#email",
      },
      push_remove: {
        run: ({ values }) => removeSubscription(user, values.id ?? ""),
        toast: "push_subscription_removed",
        to: "/pages/profile-setting#email",
      },
      whatsapp_add: {
        run: ({ values }) => addNumber(user, values),
        toast: "whatsapp_code_sent",
        to: "/pages/profile-setting#whatsapp",
      },
      whatsapp_confirm: {
        run: ({ values }) => confirmNumber(user, values),
        toast: "whatsapp_confirmed",
        to: "/pages/profile-setting#email",
      },
      whatsapp_remove: {
        run: () => removeNumber(user),
        toast: "whatsapp_number_removed",
        to: "/pages/profile-setting#whatsapp",
      },
      portfolio_add: {
        run: ({ values, form }) => addPortfolioItem(user, values, fileOf(form, "image")),
        ...portfolio("portfolio_item_added"),
      },
      portfolio_update: {
        run: ({ values, form }) => updatePortfolioItem(user, values.id ?? "", values, fileOf(form, "image")),
        ...portfolio("portfolio_item_updated"),
      },
      portfolio_remove: {
        run: ({ values }) => deletePortfolioItem(user, values.id ?? ""),
        ...portfolio("portfolio_item_deleted"),
      },
    },
  );
}

export default function ProfileSettingsPage() {
  const { t } = useTranslation();
  const user = useRootData()?.user;
  const refusal = useActionData<typeof action>();
  const { portfolio, devices, whatsapp } = useLoaderData<typeof loader>();
  // A refusal belongs to the form that was sent.
  const emailRefused = refusal?.values?.intent === "email";
  const portfolioRefusal = refusal?.values?.intent?.startsWith("portfolio_") ? refusal : undefined;
  const whatsappRefusal = refusal?.values?.intent?.startsWith("whatsapp_") ? refusal : undefined;
  const data = portfolioRefusal || emailRefused || whatsappRefusal ? undefined : refusal;
  const busy = usePending(null);
  if (!user) return null;
  const f = formFields(profileSchema, data, {
    ...user,
    company_cnpj: user.company_cnpj ? formatCnpj(user.company_cnpj) : "",
  });
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
          <Field
            name="photo"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            label={t("fields.photo")}
            hint={t("fields.photo_hint")}
            error={data?.errors?.photo}
            beside={<Avatar user={user} size="lg" />}
          />
          <div className="grid-2">
            {/* Optional to an API client (a field left out stays), required here: the form sends every field. */}
            <Field {...f.full_name} label={t("fields.full_name")} required />
            <Field {...f.display_name} label={t("fields.display_name_optional")} />
          </div>
          <TextAreaField {...f.bio} label={t("fields.bio")} rows={5} />
          {user.account_type === "merchant" ? (
            <>
              {/* A merchant hires: their company, not the skills and remote work a freelancer offers. */}
              <div className="grid-2">
                <Field
                  {...f.company_name}
                  label={t("fields.company_name_optional")}
                  hint={t("fields.company_name_hint")}
                  autoComplete="organization"
                />
                <Field
                  {...f.company_cnpj}
                  label={t("fields.company_cnpj_optional")}
                  hint={t("fields.company_cnpj_hint")}
                  inputMode="numeric"
                  maxLength={18}
                />
              </div>
              <Field {...f.city} label={t("fields.city_optional")} autoComplete="address-level2" />
            </>
          ) : (
            <>
              <Field {...f.skills} label={t("fields.skills")} hint={t("fields.skills_hint")} />
              <div className="grid-2">
                <Field {...f.city} label={t("fields.city_optional")} autoComplete="address-level2" />
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
      <PushDevices devices={devices} />
      {whatsapp ? <WhatsappCard number={whatsapp.number} refusal={whatsappRefusal} /> : null}
    </div>
  );
}

/**
 * A kind's box in the push or WhatsApp column (described by the kind's name), or "not by WhatsApp"
 * for new messages, which no paid template carries (docs/product.md, section 6).
 */
function ChannelBox({ channel, kind, on }: { channel: "push" | "whatsapp"; kind: EmailKindName; on: boolean }) {
  const { t } = useTranslation("market");
  return channel === "whatsapp" && !isWhatsappKind(kind) ? (
    <span className="muted">{t("email_settings.channels.not_whatsapp")}</span>
  ) : (
    <input
      type="checkbox"
      name={channel}
      value={kind}
      defaultChecked={on}
      aria-label={t(`email_settings.channels.${channel}`)}
      aria-describedby={`email-kind-${kind}-push`}
    />
  );
}

/**
 * Per kind, its channels: in the app (always), by e-mail and by push (checkboxes), in a table per
 * group, and the e-mails' language: a plain form.
 */
function EmailSettings({
  role,
  refusal,
}: {
  role: "merchant" | "freelancer";
  refusal?: { message?: string; errors?: Record<string, string> };
}) {
  const { t } = useTranslation("market");
  const { email, whatsapp } = useLoaderData<typeof loader>();
  const busy = usePending("email");
  // The WhatsApp column once a number is confirmed (its kinds are all off until turned on).
  const withWhatsapp = whatsapp?.number?.status === "confirmed" && email.whatsapp !== undefined;
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
      {/* Tells the action that this form has the push column (a form without it leaves push as it is). */}
      <input type="hidden" name="push_shown" value="1" />
      {withWhatsapp ? <input type="hidden" name="whatsapp_shown" value="1" /> : null}
      {emailKindGroupsFor(role).map(({ group, kinds }) => (
        <table key={group} className="email-kinds notification-channels">
          <caption>{t(`email_settings.groups.${group}`)}</caption>
          <thead>
            <tr>
              <th scope="col">{t("email_settings.channels.kind")}</th>
              <th scope="col">{t("email_settings.channels.app")}</th>
              <th scope="col">{t("email_settings.channels.email")}</th>
              <th scope="col">{t("email_settings.channels.push")}</th>
              {withWhatsapp ? <th scope="col">{t("email_settings.channels.whatsapp")}</th> : null}
            </tr>
          </thead>
          <tbody>
            {kinds.map((kind) => (
              <tr key={kind}>
                <th scope="row">
                  <label htmlFor={`email-kind-${kind}`}>{t(`email_settings.kinds.${kind}`)}</label>
                </th>
                <td>{t("email_settings.channels.always")}</td>
                <td>
                  <input
                    type="checkbox"
                    id={`email-kind-${kind}`}
                    name="kinds"
                    value={kind}
                    defaultChecked={email.kinds[kind]}
                  />
                </td>
                <td>
                  <ChannelBox channel="push" kind={kind} on={email.push[kind]} />
                  <span hidden id={`email-kind-${kind}-push`}>
                    {t(`email_settings.kinds.${kind}`)}
                  </span>
                </td>
                {withWhatsapp ? (
                  <td>
                    <ChannelBox channel="whatsapp" kind={kind} on={email.whatsapp?.[kind] ?? false} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
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
