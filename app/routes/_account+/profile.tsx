import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import { formatDate } from "~/lib/format";
import { titleMeta } from "~/lib/meta";
import { requireUser } from "~/web/auth.server";
import { toUserJson } from "~/services/accounts/users.server";
import { useRootData } from "~/lib/root-data";
import { displayNameOf } from "~/lib/users";

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
      <section className="card profile-card">
        <div className="profile-head">
          <Avatar user={user} size="lg" />
          <div>
            <h2>{displayNameOf(user)}</h2>
            {user.display_name ? <p className="muted">{user.full_name}</p> : null}
            <span className={`badge badge-${user.account_type}`}>{t(`account_types.${user.account_type}`)}</span>
          </div>
          <Link to="/pages/profile-setting" className="btn btn-secondary profile-edit">
            {t("profile.edit")}
          </Link>
        </div>
        <dl className="details">
          <div>
            <dt>{t("fields.email")}</dt>
            <dd>{user.email}</dd>
          </div>
          <div>
            <dt>{t("profile.member_since")}</dt>
            <dd>{formatDate(user.created_at, i18n.language)}</dd>
          </div>
          <div className="wide">
            <dt>{t("fields.bio")}</dt>
            <dd>{user.bio || <span className="muted">{t("profile.no_bio")}</span>}</dd>
          </div>
          <div className="wide">
            <dt>{t("fields.skills")}</dt>
            <dd>
              {user.skills.length ? (
                <ul className="tags">
                  {user.skills.map((skill) => (
                    <li key={skill} className="tag">
                      {skill}
                    </li>
                  ))}
                </ul>
              ) : (
                <span className="muted">{t("profile.no_skills")}</span>
              )}
            </dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
