import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link } from "@remix-run/react";
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
  return json({ user: toUserJson(await requireUser(request)) });
}

export default function ProfilePage() {
  const { t, i18n } = useTranslation();
  const user = useRootData()?.user;
  if (!user) return null;
  return (
    <div className="page">
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
