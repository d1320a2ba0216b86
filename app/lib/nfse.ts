import type { NfseKind, NfseStatus } from "../../db/schema";

// The notas fiscais' fixed values, for the pages in the browser as well as the services.

export const NFSE_STATUSES: NfseStatus[] = ["pending", "issuing", "issued", "rejected", "failed", "cancelled"];
export const NFSE_KINDS: NfseKind[] = ["fee", "service"];
