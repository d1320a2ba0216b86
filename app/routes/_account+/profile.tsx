import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ProfileSheet } from "~/components/ui/profile-sheet";
import { formatDate } from "~/lib/format";
import { titleMeta } from "~/lib/meta";
import { requireUser } from "~/web/auth.server";
import { toUserJson } from "~/services/accounts/users.server";
import { useRootData } from "~/lib/root-data";
import { displayNameOf } from "~/lib/users";
import { Tags } from "~/components/ui/tags";
import { Facts } from "~/components/ui/facts";

export const meta = titleMeta("titles.profile");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // A profile an operator hid: its owner is told here, with the reason.
  const hidden = user.profile_hidden_at ? { reason: user.profile_hidden_reason } : null;
  return json({ user: toUserJson(user), hidden });
}

export default function ProfilePage() {
  const { t, i18n } = useTranslation();
  const user = useRootData()?.user;
  const { hidden } = useLoaderData<typeof loader>();
  if (!user) return null;
  return (
    <div className="page">
      {hidden ? (
        <p className="notice notice-warning" role="status">
          {t("moderation.profile_hidden", { ns: "market" })}{" "}
          {hidden.reason ? t("moderation.why", { ns: "market", reason: hidden.reason }) : null}
        </p>
      ) : null}
      <ProfileSheet
        person={user}
        name={displayNameOf(user)}
        action={
          <Link to="/pages/profile-setting" className="btn btn-secondary profile-edit">
            {t("profile.edit")}
          </Link>
        }
      >
        <Facts
          className="details"
          items={[
            { label: t("fields.email"), value: user.email },
            { label: t("profile.member_since"), value: formatDate(user.created_at, i18n.language) },
            {
              label: t("fields.bio"),
              value: user.bio || <span className="muted">{t("profile.no_bio")}</span>,
              wide: true,
            },
            {
              label: t("fields.skills"),
              value: <Tags items={user.skills} empty={<span className="muted">{t("profile.no_skills")}</span>} />,
              wide: true,
            },
          ]}
        />
      </ProfileSheet>
    </div>
  );
}
