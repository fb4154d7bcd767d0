// Bearer-token authentication, as ghcr.io and Docker Hub use it: the registry answers 401 with a
// challenge naming a token realm, the client fetches a token there with its Basic credentials and
// retries. docker-registry cannot be given a token service without another server, so a small
// in-process registry plays both parts.
import { after, before, test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { AddressInfo } from "node:net";
import { LAYER_MEDIA_TYPE, pullPolicy } from "../tools/oci/policy";
import { credentialsFor, dockerConfigPath, parseReference, RegistryError, sha256Digest } from "../tools/oci/registry";

const WASM = Buffer.from("\0asm\x01\0\0\0");
const MANIFEST = Buffer.from(
  JSON.stringify({
    schemaVersion: 2,
    config: { mediaType: "application/vnd.wasm.config.v1+json", digest: sha256Digest(Buffer.from("{}")), size: 2 },
    layers: [{ mediaType: LAYER_MEDIA_TYPE, digest: sha256Digest(WASM), size: WASM.length }],
  }),
);
const IMAGE_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";
const GOOD = `Basic ${Buffer.from("robot:s3cret").toString("base64")}`;
let server: http.Server;
let host = "";
const tokenRequests: string[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${host}`);
    if (url.pathname === "/token") {
      tokenRequests.push(`${url.searchParams.get("service")} ${url.searchParams.get("scope")}`);
      if (req.headers.authorization !== GOOD) {
        res.writeHead(401, { "content-type": "application/json" });
        return res.end('{"errors":[{"code":"DENIED","message":"bad credentials"}]}');
      }
      res.writeHead(200, { "content-type": "application/json" });
      return res.end('{"token":"tok-123"}');
    }
    if (req.headers.authorization !== "Bearer tok-123") {
      res.writeHead(401, {
        "www-authenticate": `Bearer realm="http://${host}/token",service="test-registry",scope="repository:ns/p:pull"`,
        "content-type": "application/json",
      });
      return res.end('{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}');
    }
    if (url.pathname === "/v2/ns/p/manifests/v1") {
      res.writeHead(200, { "content-type": "application/vnd.oci.image.manifest.v1+json" });
      return res.end(MANIFEST);
    }
    if (url.pathname === "/v2/ns/image/manifests/v1") {
      // a container image, not a policy
      res.writeHead(200, { "content-type": "application/vnd.oci.image.manifest.v1+json" });
      return res.end(JSON.stringify({ schemaVersion: 2, layers: [{ mediaType: IMAGE_LAYER, digest: "sha256:00" }] }));
    }
    if (url.pathname === `/v2/ns/p/blobs/${sha256Digest(WASM)}`) {
      res.writeHead(200);
      return res.end(WASM);
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

test("bearer: the token is fetched from the challenge's realm with the service and scope, then used", async () => {
  tokenRequests.length = 0;
  const pulled = await pullPolicy(parseReference(`registry://${host}/ns/p:v1`), {
    credentials: { username: "robot", password: "s3cret" },
  });
  assert.ok(pulled.wasm.equals(WASM));
  assert.equal(pulled.manifestDigest, sha256Digest(MANIFEST));
  assert.deepEqual(tokenRequests, ["test-registry repository:ns/p:pull"]);
});

test("bearer: a token service refusing the credentials is one line naming the registry", async () => {
  await assert.rejects(
    pullPolicy(parseReference(`registry://${host}/ns/p:v1`), { credentials: { username: "robot", password: "nope" } }),
    (e: unknown) =>
      e instanceof RegistryError &&
      e.message === `registry ${host} refused the credentials for ns/p (HTTP 401: DENIED: bad credentials)`,
  );
});

test("Docker config: auth or username/password, keys with or without a scheme; absent file = none", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-dockercfg-"));
  try {
    const file = path.join(dir, "config.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        auths: {
          "https://reg.example:5000/v1/": { auth: Buffer.from("u:p:with:colons").toString("base64") },
          "other.example": { username: "x", password: "y" },
        },
      }),
    );
    assert.deepEqual(credentialsFor("reg.example:5000", file), { username: "u", password: "p:with:colons" });
    assert.deepEqual(credentialsFor("other.example", file), { username: "x", password: "y" });
    assert.equal(credentialsFor("reg.example", file), undefined);
    assert.equal(credentialsFor("reg.example:5000", path.join(dir, "missing.json")), undefined);
    assert.equal(dockerConfigPath({ DOCKER_CONFIG: dir }), file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("pull refuses an artifact whose first layer is not a wasm policy", async () => {
  await assert.rejects(
    pullPolicy(parseReference(`registry://${host}/ns/image:v1`), {
      credentials: { username: "robot", password: "s3cret" },
    }),
    {
      message: `registry://${host}/ns/image:v1: not a Kubewarden policy (the first layer is ${IMAGE_LAYER}, expected ${LAYER_MEDIA_TYPE})`,
    },
  );
});
