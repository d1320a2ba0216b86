import { randomInt } from "node:crypto";
import type { SefinClient, SefinCredentials } from "~/services/fiscal/sefin-client.server";
import type { SefinMessage } from "~/services/fiscal/sefin.server";

/**
 * An in-memory Sefin Nacional for the notas' drain: issues an NFS-e per DPS id (its chave and
 * number), keeps what was sent, and follows a script for the next calls of issue: "fail" (503),
 * "accept-then-timeout" (issued, but the answer is lost), "duplicate" (issued, answered E0014),
 * or a rejection with its code and text. Lookups may be made to fail ("lookup-fail").
 */
export type Step = "fail" | "accept-then-timeout" | "duplicate" | { reject: string; message: string };

export function fakeSefin() {
  const notas = new Map<string, { accessKey: string; nfseXml: string }>();
  const sent: { xml: string; dpsId: string; credentials: SefinCredentials; environment: string }[] = [];
  const script: Step[] = [];
  const lookups: string[] = [];
  let lookupFails = 0;
  let numbers = 0;
  const message = (code: string, description: string): SefinMessage => ({ code, description, complement: null });

  function accept(dpsId: string) {
    numbers += 1;
    const accessKey = "3550308" + "2" + String(randomInt(1e9)).padStart(42, "0");
    const nfseXml = `<NFSe xmlns="http://www.sped.fazenda.gov.br/nfse"><infNFSe Id="NFS${accessKey}"><nNFSe>${numbers}</nNFSe><idDps>${dpsId}</idDps></infNFSe></NFSe>`;
    const nota = { accessKey, nfseXml };
    notas.set(dpsId, nota);
    return nota;
  }

  const client: SefinClient = {
    async issue(xml, credentials, environment) {
      const dpsId = /Id="(DPS\d{42})"/.exec(xml)![1]!;
      sent.push({ xml, dpsId, credentials, environment });
      await new Promise((resolve) => setTimeout(resolve, 2));
      const step = script.shift();
      if (step === "fail") return { kind: "failed", status: 503, errors: [message("", "Serviço indisponível.")] };
      if (typeof step === "object")
        return { kind: "rejected", status: 400, dpsId, errors: [message(step.reject, step.message)] };
      if (notas.has(dpsId) || step === "duplicate") {
        if (!notas.has(dpsId)) accept(dpsId);
        return { kind: "rejected", status: 400, dpsId, errors: [message("E0014", "DPS já utilizada em uma NFS-e.")] };
      }
      const nota = accept(dpsId);
      if (step === "accept-then-timeout") throw new Error("The operation was aborted due to timeout");
      return { kind: "issued", dpsId, environment: 2, processedAt: null, alerts: [], ...nota };
    },
    async findByDpsId(dpsId) {
      lookups.push(dpsId);
      if (lookupFails > 0) {
        lookupFails -= 1;
        return { kind: "failed", status: 504, errors: [message("", "Tempo esgotado.")] };
      }
      const nota = notas.get(dpsId);
      return nota ? { kind: "found", ...nota } : { kind: "absent" };
    },
    async findByAccessKey(accessKey) {
      const nota = [...notas.values()].find((n) => n.accessKey === accessKey);
      return nota ? { kind: "found", ...nota } : { kind: "absent" };
    },
    async cancel(input) {
      const known = [...notas.values()].some((n) => n.accessKey === input.accessKey);
      return known
        ? { kind: "cancelled", eventXml: `<evento chave="${input.accessKey}"/>` }
        : { kind: "rejected", status: 404, errors: [message("E0840", "NFS-e não encontrada.")] };
    },
  };
  return {
    client,
    notas,
    sent,
    lookups,
    /** The next answers of issue, in order. */
    then: (...steps: Step[]) => script.push(...steps),
    failLookups: (n: number) => (lookupFails = n),
  };
}
