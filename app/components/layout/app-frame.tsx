import type { ReactNode } from "react";
import { useChangeLanguage } from "remix-i18next/react";
import { AuthMirror } from "~/components/accounts/auth-mirror";
import { UndeliverableEmailBanner, VerifyEmailBanner } from "~/components/accounts/verify-email-banner";
import { MessagesBadge } from "~/components/messaging/messages-badge";
import { NotificationBell } from "~/components/messaging/notification-bell";
import { useLiveEvents } from "~/lib/live-events";
import type { RootData } from "~/lib/root-data";
import { Shell } from "./shell";
import { Toaster } from "./toaster";

/**
 * What every page has inside <body> besides Remix's scripts: for a signed-in user the shell (side
 * menu, top bar with the bell, the e-mail banner) around the page, then the toast and the token's
 * mirror. The root renders it; so does the bare SSR reference of the benchmark (bench/bare-page.tsx).
 */
export function AppFrame({ data, children }: { data: RootData; children: ReactNode }) {
  useChangeLanguage(data.locale);
  // Members' pages update as messages, notifications and contract moves happen.
  useLiveEvents(Boolean(data.notifications));
  return (
    <>
      {data.user ? (
        <Shell
          user={data.user}
          banner={
            data.verifyEmail ? (
              <VerifyEmailBanner email={data.user.email} />
            ) : data.undeliverableEmail ? (
              <UndeliverableEmailBanner email={data.user.email} />
            ) : null
          }
          bell={
            data.notifications ? (
              <>
                {data.messages ? <MessagesBadge unread={data.messages} /> : null}
                <NotificationBell unread={data.notifications.unread} latest={data.notifications.latest} />
              </>
            ) : null
          }
        >
          {children}
        </Shell>
      ) : (
        children
      )}
      <Toaster toast={data.toast} />
      <AuthMirror user={data.user} token={data.mirrorToken} />
    </>
  );
}
