import { ContactNotice } from "~/components/messaging/contact-notice";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FieldsForm, FormActions, SelectField, TextAreaField } from "~/components/ui/form";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PortfolioList } from "~/components/reputation/portfolio";
import { PublicProfile } from "~/components/reputation/public-profile";
import { ProfileReviews } from "~/components/reputation/reviews";
import { listFromUrl, redirectWithMarketToast } from "~/web/market-forms.server";
import { orRefusal } from "~/web/errors.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { requireUser } from "~/web/auth.server";
import { AppError } from "~/services/platform/errors.server";
import { formError } from "~/web/errors.server";
import { formValues, readForm } from "~/web/bodies.server";
import { checkFields } from "~/lib/schemas";
import { inviteFreelancer, openOpportunitiesOf } from "~/services/marketplace/invitations.server";
import { inviteInputSchema } from "~/lib/market-schemas";
import { formFields } from "~/lib/form-fields";
import { getFreelancerProfile } from "~/services/reputation/profiles.server";
import { listUserReviews } from "~/services/reputation/reviews.server";
import { pageId } from "~/web/params.server";
import { usePending } from "~/lib/pending";

export const meta = marketTitleMeta("titles.profile");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const profile = await orRefusal(getFreelancerProfile(pageId(params, "id", "profile_not_found"), user.id));
  const [{ list: reviews }, openings] = await Promise.all([
    listFromUrl(request, ["page"], (q) => listUserReviews(profile.id, q)),
    openOpportunitiesOf(user),
  ]);
  // Arriving from an opportunity's suggestions: the invitation is set to that opportunity.
  const asked = new URL(request.url).searchParams.get("oportunidade");
  const preselected = openings.find((o) => o.uuid === asked)?.uuid ?? null;
  return json({
    profile,
    reviews,
    openings,
    preselected,
    merchant: user.account_type === "merchant",
    viewerId: user.id,
  });
}

/** A merchant invites this freelancer to one of their open opportunities. */
export async function action({ request, params }: ActionFunctionArgs) {
  const merchant = await requireUser(request);
  // A profile that does not exist is the not-found page, as for the loader, not a form error.
  await orRefusal(getFreelancerProfile(pageId(params, "id", "profile_not_found")));
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    if (!values.opportunity) {
      // With the message's own problems, so the form reports both at once.
      const { errors } = checkFields(inviteInputSchema, { freelancer_id: params.id, message: values.message ?? "" });
      throw new AppError(422, "invite_failed", { opportunity: "invite_opportunity_required", ...errors });
    }
    await inviteFreelancer(merchant, values.opportunity, {
      freelancer_id: params.id,
      message: values.message ?? "",
      confirm_contact: values.confirm_contact,
    });
    return redirectWithMarketToast(request, `/freelancers/${params.id}`, "toasts.invitation_sent");
  } catch (error) {
    // An opportunity that is not the merchant's (or no longer exists) is a field error here.
    const refusal =
      error instanceof AppError && error.status === 404
        ? new AppError(422, "invite_failed", { opportunity: "invite_opportunity_required" })
        : error;
    return formError(request, refusal, values);
  }
}

function InviteForm({
  name,
  openings,
  preselected,
}: {
  name: string;
  openings: { uuid: string; title: string }[];
  preselected: string | null;
}) {
  const { t } = useTranslation();
  const refusal = useActionData<typeof action>();
  const busy = usePending();
  return (
    <section className="card" aria-labelledby="invite-title">
      <h3 id="invite-title">{t("invitations.invite_heading")}</h3>
      {openings.length ? (
        <>
          <p className="muted">{t("invitations.invite_intro", { name })}</p>
          <FieldsForm id="invite-form" data={refusal} className="stack" clearOnSuccess>
            <SelectField
              name="opportunity"
              label={t("invitations.opportunity")}
              anyLabel={t("invitations.choose")}
              options={openings.map((o) => ({ value: o.uuid, label: o.title }))}
              value={refusal?.values?.opportunity ?? preselected ?? undefined}
              error={refusal?.errors?.opportunity}
              required
            />
            <TextAreaField
              {...formFields(inviteInputSchema, refusal).message}
              label={t("invitations.message")}
              hint={t("invitations.message_hint")}
              rows={3}
            />
            <ContactNotice refusal={refusal} />
            <FormActions busy={busy} label={t("invitations.send")} />
          </FieldsForm>
        </>
      ) : (
        <p className="muted">{t("invitations.no_open")}</p>
      )}
    </section>
  );
}

export default function FreelancerProfilePage() {
  const { t } = useTranslation();
  const { profile, reviews, openings, preselected, merchant, viewerId } = useLoaderData<typeof loader>();
  const here = `/freelancers/${profile.id}`;
  return (
    <PublicProfile profile={profile} viewerId={viewerId} here={here}>
      <section className="card" aria-labelledby="portfolio-title">
        <h3 id="portfolio-title">{t("public_profile.portfolio")}</h3>
        {profile.portfolio.length ? (
          <PortfolioList items={profile.portfolio} />
        ) : (
          <p className="muted">{t("portfolio.empty")}</p>
        )}
      </section>
      <ProfileReviews reviews={reviews.data} meta={reviews.meta} viewerId={viewerId} back={here} />
      {merchant ? <InviteForm name={profile.name} openings={openings} preselected={preselected} /> : null}
    </PublicProfile>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
