import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { UserJson } from "~/services/accounts/users.server";
import { Avatar } from "./avatar";

type Person = {
  full_name: string;
  display_name: string | null;
  photo_url: string | null;
  /** An operator has no profile page (the console is theirs), but a signed-in user's type includes it. */
  account_type: UserJson["account_type"];
};

/**
 * A profile's card, one's own or someone's public one: photo, the name shown (with the full name
 * under a chosen display name), the account type, an `action` beside them, then the details.
 */
export function ProfileSheet({
  person,
  name,
  action,
  children,
}: {
  person: Person;
  name: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section className="card profile-card">
      <div className="profile-head">
        <Avatar user={person} size="lg" />
        <div>
          <h2>{name}</h2>
          {person.display_name ? <p className="muted">{person.full_name}</p> : null}
          <span className={`badge badge-${person.account_type}`}>{t(`account_types.${person.account_type}`)}</span>
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}
