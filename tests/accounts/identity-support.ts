import { expect } from "vitest";
import { generateCpf } from "@brazilian-utils/brazilian-utils";
import { db } from "../../db";
import * as identityRoute from "~/routes/api+/_account+/identity._index";
import * as documentsRoute from "~/routes/api+/_account+/identity.documents";
import * as decisionRoute from "~/routes/api+/admin+/identity.$id.decision";
import { BASE, call, signedInUser } from "../support/helpers";
import { PNG_1X1 } from "../support/fixtures";
import { post } from "../operator/support";

// Identity fixtures shared by the operator's and the automatic provider's tests.

export const person = (document = generateCpf()) => ({
  kind: "person",
  document,
  legal_name: "Júlia Recebedora da Silva",
  birth_date: "1990-05-17",
});

export function multipart(path: string, token: string, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return new Request(BASE + path, { method: "POST", body: form, headers: { Authorization: `Bearer ${token}` } });
}

export const photos = () => ({
  doc_type: "rg",
  front: new Blob([PNG_1X1]),
  back: new Blob([PNG_1X1]),
  selfie: new Blob([PNG_1X1]),
});

export const saveIdentity = (token: string, body: unknown) => post(identityRoute, "/api/identity", token, body);
export const sendPhotos = (token: string, fields: Record<string, string | Blob> = photos()) =>
  call(documentsRoute.action, multipart("/api/identity/documents", token, fields));
export const decide = (token: string, userId: string, body: unknown) =>
  post(decisionRoute, `/api/admin/identity/${userId}/decision`, token, body, { id: userId });
export const identityOf = (userId: string) =>
  db.selectFrom("identities").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();

/** A freelancer whose identity waits for a decision. */
export async function pending() {
  const who = await signedInUser({ account_type: "freelancer" });
  const document = generateCpf();
  expect((await saveIdentity(who.token, person(document))).status).toBe(200);
  expect((await sendPhotos(who.token)).status).toBe(200);
  return { ...who, document };
}
