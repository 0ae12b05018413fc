// The official MCP TypeScript SDK client signing in by OAuth, driven by api-host tests (SignInMcpTest): it meets the
// platform's 401, discovers the protected resource and the authorization server, registers itself dynamically,
// and is sent to the login page, which this script fills in the way a person's browser would (it reads the form's
// hidden fields and CSRF cookie and posts them with the email and password). The code comes back on the loopback
// redirect URI; the SDK exchanges it with its PKCE verifier and lists the tools. Then the token it got is tried on
// another MCP endpoint, which must refuse it.
// usage: node mcp-oauth-client.mjs MCP_URL EMAIL PASSWORD OTHER_MCP_URL
// Prints one JSON object per line: redirected, authorized, tools, other, or failed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const [url, email, password, otherUrl] = process.argv.slice(2);
const out = (o) => console.log(JSON.stringify(o));
const redirectUrl = "http://127.0.0.1:43117/callback";
let code;

// In-memory storage, as an application's OAuthClientProvider keeps it on disk.
const store = {};
const provider = {
  get redirectUrl() { return redirectUrl; },
  get clientMetadata() {
    return { client_name: "stockade sdk test", redirect_uris: [redirectUrl], grant_types: ["authorization_code",
      "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  },
  state: () => "sdk-state-1",
  clientInformation: () => store.client,
  saveClientInformation: (c) => { store.client = c; },
  tokens: () => store.tokens,
  saveTokens: (t) => { store.tokens = t; },
  saveCodeVerifier: (v) => { store.verifier = v; },
  codeVerifier: () => store.verifier,
  redirectToAuthorization: async (authorizationUrl) => {
    out({ event: "redirected", authorize: authorizationUrl.origin + authorizationUrl.pathname,
          method: authorizationUrl.searchParams.get("code_challenge_method"),
          resource: authorizationUrl.searchParams.get("resource"), client: store.client?.client_id });
    code = await signInLikeABrowser(authorizationUrl);
  },
};

/** GET the login page, post its form back with the CSRF cookie, and read the code from the redirect. */
async function signInLikeABrowser(authorizationUrl) {
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  if (page.status !== 200) throw new Error(`login page answered ${page.status}: ${await page.text()}`);
  const cookie = page.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const html = await page.text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(m[1], m[2].replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">").replaceAll("&amp;", "&"));
  }
  form.set("email", email);
  form.set("password", password);
  const action = new URL("/signin/authorize", authorizationUrl);
  const posted = await fetch(action, { method: "POST", redirect: "manual", body: form,
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" } });
  const location = posted.headers.get("location");
  if (posted.status !== 303 || !location || !location.startsWith(redirectUrl)) {
    throw new Error(`sign-in answered ${posted.status} to ${location}`);
  }
  const back = new URL(location);
  if (back.searchParams.get("state") !== "sdk-state-1") throw new Error("state did not come back");
  return back.searchParams.get("code");
}

try {
  const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  try {
    await new Client({ name: "stockade-oauth-test", version: "1.0.0" }).connect(first);
    throw new Error("connected without signing in");
  } catch (e) {
    if (!(e instanceof UnauthorizedError) || !code) throw e;
  }
  await first.finishAuth(code);
  out({ event: "authorized", client: store.client.client_id, refresh: Boolean(store.tokens.refresh_token) });
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  const client = new Client({ name: "stockade-oauth-test", version: "1.0.0" });
  await client.connect(transport);
  const listed = await client.listTools();
  out({ event: "tools", protocolVersion: transport.protocolVersion, names: listed.tools.map((t) => t.name) });
  await client.close();
  const other = await fetch(otherUrl, { method: "POST", body: "{}", headers: {
    authorization: `Bearer ${store.tokens.access_token}`, "content-type": "application/json",
    accept: "application/json, text/event-stream" } });
  out({ event: "other", status: other.status, challenge: other.headers.get("www-authenticate") });
} catch (e) {
  out({ event: "failed", message: String(e && e.stack ? e.stack : e) });
  process.exit(1);
}
