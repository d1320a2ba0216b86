// The Sefin stand-in (tests/support/sefin-standin.ts) in a process of its own, for bench/nfse.ts:
// prints one JSON line (its URL, the CA to trust, the test CA's certificate and key, to issue the
// e-CNPJ certificates it accepts) and serves until its standard input closes.
import forge from "node-forge";
import { makeTestCa } from "../tests/support/fiscal-certificates";
import { startSefinStandIn } from "../tests/support/sefin-standin";

const ca = makeTestCa();
const standIn = await startSefinStandIn({ ca });
console.info(
  JSON.stringify({
    url: standIn.url,
    ca: standIn.ca,
    caCertificate: ca.certificatePem,
    caKey: forge.pki.privateKeyToPem(ca.key),
  }),
);
process.stdin.resume();
process.stdin.on("end", () => void standIn.close().then(() => process.exit(0)));
