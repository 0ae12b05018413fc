// The official MCP TypeScript SDK client, driven by api-host tests: connects to a Stockade MCP endpoint with a bearer
// token, lists tools, optionally calls one, and optionally waits for notifications/tools/list_changed.
// usage: node mcp-client.mjs URL TOKEN [TOOL ARGS_JSON] [wait]
// Prints one JSON object per line: initialized, tools, call or call-error, ready, changed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [url, token, tool, args, wait] = process.argv.slice(2);
const out = (o) => console.log(JSON.stringify(o));
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "stockade-test-client", version: "1.0.0" });
let changed;
const changedOnce = new Promise((resolve) => (changed = resolve));
client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());

try {
  await client.connect(transport);
  out({ event: "initialized", protocolVersion: transport.protocolVersion, server: client.getServerVersion(),
        sessionId: transport.sessionId });
  const listed = await client.listTools();
  out({ event: "tools", names: listed.tools.map((t) => t.name), tools: listed.tools });
  if (tool) {
    try {
      out({ event: "call", result: await client.callTool({ name: tool, arguments: JSON.parse(args || "{}") }) });
    } catch (e) {
      out({ event: "call-error", code: e.code, message: e.message });
    }
  }
  if (wait === "wait") {
    out({ event: "ready" });
    const deadline = new Promise((_, reject) => setTimeout(() => reject(new Error("no list_changed in 30 s")), 30000));
    await Promise.race([changedOnce, deadline]);
    const again = await client.listTools();
    out({ event: "changed", names: again.tools.map((t) => t.name) });
  }
  await transport.terminateSession();
  await client.close();
} catch (e) {
  out({ event: "failed", message: String(e && e.message ? e.message : e) });
  process.exit(1);
}
