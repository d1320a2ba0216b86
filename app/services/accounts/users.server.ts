import type { UserRow } from "../../../db/schema";
import { displayNameOf, parseTags } from "~/lib/users";

// Shared with the seed and the pages, which must not import services; the services take them from here.
export { displayNameOf, parseTags };

export function photoUrl(photoPath: string | null) {
  return photoPath ? `/uploads/${photoPath}` : null;
}

/** The public shape of a user; the legacy aliases repeat account_type. No secret leaves here. */
export function toUserJson(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    display_name: user.display_name,
    full_name: user.full_name,
    account_type: user.account_type,
    user_type: user.account_type,
    type: user.account_type,
    role: user.account_type,
    bio: user.bio,
    skills: parseTags(user.skills),
    photo_path: user.photo_path,
    photo_url: photoUrl(user.photo_path),
    city: user.city,
    remote: user.remote === 1,
    /** Freelancers: the profile has a public page for visitors (off: hidden by its owner). */
    public_profile: user.public_profile !== 0,
    /** Merchants: the company as declared (the name is public; the CNPJ only on their contracts' receipts). */
    company_name: user.company_name ?? null,
    company_cnpj: user.company_cnpj ?? null,
    /** When the e-mail was confirmed; null: not yet (writes to others wait for it, EMAIL_VERIFICATION). */
    email_verified_at: user.email_verified_at,
    /** The version of the terms and privacy policy accepted last (GET /api/terms has the current one). */
    terms_version: user.terms_version,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}

export type UserJson = ReturnType<typeof toUserJson>;
