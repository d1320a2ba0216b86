import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/avatar";
import { Field, FormMessage, TextAreaField } from "~/components/form";
import { titleMeta } from "~/lib/meta";
import { updateProfile } from "~/services/accounts.server";
import { requireUser } from "~/services/auth.server";
import { fileOf, formError, formValues, profileInput, readPhotoForm } from "~/services/forms.server";
import { addPortfolioItem, deletePortfolioItem, listPortfolio, updatePortfolioItem } from "~/services/portfolio.server";
import { PortfolioEditor } from "~/components/portfolio";
import { getRequestT } from "~/services/i18n.server";
import { redirectWithSuccess } from "~/services/toast.server";
import { useRootData } from "~/lib/root-data";

export const meta = titleMeta("titles.profile_settings");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ portfolio: user.account_type === "freelancer" ? await listPortfolio(user.id) : [] });
}

const PORTFOLIO_DONE = { add: "portfolio_item_added", update: "portfolio_item_updated", remove: "portfolio_item_deleted" } as const;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  let values: Record<string, string> = {};
  try {
    // Both kinds of form may carry a picture: the profile's photo or a portfolio item's image.
    const form = await readPhotoForm(request, new URL(request.url).searchParams.has("portfolio") ? "image" : "photo");
    const intent = form.get("intent");
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
  const portfolioRefusal = refusal?.values?.intent?.startsWith("portfolio_") ? refusal : undefined;
  const data = portfolioRefusal ? undefined : refusal;
  const busy = useNavigation().state === "submitting";
  if (!user) return null;
  const value = (field: "full_name" | "display_name" | "bio" | "city") => data?.values?.[field] ?? user[field] ?? "";
  const remote = data?.values?.remote !== undefined ? ["1", "on", "true"].includes(data.values.remote) : user.remote;
  return (
    <div className="page">
      <section className="card form-card">
        <h2>{t("titles.profile_settings")}</h2>
        <FormMessage data={data} />
        <Form method="post" encType="multipart/form-data" className="stack" noValidate>
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
                <p className="field-error" id="photo-error">{data.errors.photo}</p>
              ) : (
                <p className="field-hint" id="photo-hint">{t("fields.photo_hint")}</p>
              )}
            </div>
          </div>
          <div className="grid-2">
            <Field
              name="full_name"
              label={t("fields.full_name")}
              required
              maxLength={120}
              defaultValue={value("full_name")}
              error={data?.errors?.full_name}
            />
            <Field
              name="display_name"
              label={t("fields.display_name_optional")}
              maxLength={60}
              defaultValue={value("display_name")}
              error={data?.errors?.display_name}
            />
          </div>
          <TextAreaField
            name="bio"
            label={t("fields.bio")}
            rows={5}
            maxLength={1000}
            defaultValue={value("bio")}
            error={data?.errors?.bio}
          />
          <Field
            name="skills"
            label={t("fields.skills")}
            hint={t("fields.skills_hint")}
            defaultValue={data?.values?.skills ?? user.skills.join(", ")}
            error={data?.errors?.skills}
          />
          <div className="grid-2">
            <Field
              name="city"
              label={t("fields.city_optional")}
              maxLength={80}
              autoComplete="address-level2"
              defaultValue={value("city")}
              error={data?.errors?.city}
            />
            <div className="field field-check">
              {/* Unticked boxes send nothing: the hidden field says "no" unless the box follows it. */}
              <input type="hidden" name="remote" value="0" />
              <label>
                <input type="checkbox" name="remote" value="1" defaultChecked={remote} /> {t("fields.remote")}
              </label>
            </div>
          </div>
          <div className="form-actions">
            <Link to="/profile" className="btn btn-ghost">{t("actions.cancel")}</Link>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? t("actions.saving") : t("actions.save")}
            </button>
          </div>
        </Form>
      </section>
      {user.account_type === "freelancer" ? <PortfolioEditor items={portfolio} refusal={portfolioRefusal} /> : null}
    </div>
  );
}
