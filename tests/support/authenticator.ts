import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

// A software authenticator for the service tests: an ES256 key pair per passkey, "none"
// attestation, a signature counter it moves forward (or not, to play a cloned authenticator).
// It answers the options the server hands out as a browser would (the JSON of
// @simplewebauthn/browser), for the origin and rpID given.

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export type SoftPasskey = { id: Buffer; privateKey: KeyObject; userHandle: string; counter: number };

export function softAuthenticator({ origin, rpID }: { origin: string; rpID: string }) {
  const rpIdHash = sha256(rpID);
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  /** Answers registration options: a new passkey and the attestation response. */
  function register(options: { challenge: string; user: { id: string } }, { counter = 0 } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
    const id = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      rpIdHash,
      Buffer.from([0x45]), // user present, user verified, attested credential data
      u32(counter),
      Buffer.alloc(16), // AAGUID
      idLength,
      id,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(authData)],
      ]) as never,
    );
    const passkey: SoftPasskey = { id, privateKey, userHandle: options.user.id, counter };
    const response = {
      id: b64url(id),
      rawId: b64url(id),
      type: "public-key",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData("webauthn.create", options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
    };
    return { passkey, response };
  }

  /** Answers sign-in options with a passkey; the counter moves by `step` (0: a clone's answer). */
  function authenticate(passkey: SoftPasskey, options: { challenge: string }, { step = 1 } = {}) {
    passkey.counter += step;
    const authData = Buffer.concat([rpIdHash, Buffer.from([0x05]), u32(passkey.counter)]);
    const clientDataJSON = clientData("webauthn.get", options.challenge);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), passkey.privateKey);
    return {
      id: b64url(passkey.id),
      rawId: b64url(passkey.id),
      type: "public-key",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: passkey.userHandle,
      },
    };
  }

  return { register, authenticate };
}
