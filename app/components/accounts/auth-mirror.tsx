import { useEffect } from "react";
import type { UserJson } from "~/services/accounts/users.server";

export const STORAGE_TOKEN_KEY = "auth_token";
export const STORAGE_USER_KEY = "user";

export function clearAuthStorage() {
  localStorage.removeItem(STORAGE_TOKEN_KEY);
  localStorage.removeItem(STORAGE_USER_KEY);
  sessionStorage.clear();
}

/**
 * Keeps localStorage (auth_token, user) in step with the server session for legacy
 * clients: written after a login, refreshed with the profile, cleared once the server
 * says the session is gone.
 */
export function AuthMirror({ user, token }: { user: UserJson | null; token: string | null }) {
  useEffect(() => {
    try {
      if (user) {
        if (token) localStorage.setItem(STORAGE_TOKEN_KEY, token);
        localStorage.setItem(STORAGE_USER_KEY, JSON.stringify(user));
      } else if (localStorage.getItem(STORAGE_TOKEN_KEY) || localStorage.getItem(STORAGE_USER_KEY)) {
        clearAuthStorage();
      }
    } catch {
      // Storage can be unavailable (private mode, blocked cookies); the app works without it.
    }
  }, [user, token]);
  return null;
}
