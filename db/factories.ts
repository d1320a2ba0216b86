import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import type { Kysely } from "kysely";
import type { AccountType, Database, UserRow } from "./schema";

// One set of factories for the demo seed, the unit tests and the browser tests.

export const DEFAULT_PASSWORD = "freela123";

const hashes = new Map<string, string>();
/** Hashes are cached by password: seeding many users with one password costs one hash. */
function passwordHash(password: string) {
  let hash = hashes.get(password);
  if (!hash) {
    hash = bcrypt.hashSync(password, Number(process.env.BCRYPT_COST) || 10);
    hashes.set(password, hash);
  }
  return hash;
}

let counter = 0;
export function uniqueEmail(prefix = "user") {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

export type UserOverrides = Partial<Omit<UserRow, "skills" | "password_hash">> & {
  password?: string;
  skills?: string[];
};

export async function createUser(db: Kysely<Database>, overrides: UserOverrides = {}) {
  const now = new Date().toISOString();
  const { password = DEFAULT_PASSWORD, skills = [], ...rest } = overrides;
  const accountType: AccountType = rest.account_type ?? "freelancer";
  const user: UserRow = {
    id: randomUUID(),
    email: uniqueEmail(accountType),
    display_name: null,
    full_name: accountType === "merchant" ? "Maria Contratante" : "João Freelancer",
    account_type: accountType,
    bio: "",
    photo_path: null,
    created_at: now,
    updated_at: now,
    ...rest,
    skills: JSON.stringify(skills),
    password_hash: passwordHash(password),
  };
  user.email = user.email.toLowerCase();
  await db.insertInto("users").values(user).execute();
  return { ...user, password };
}
