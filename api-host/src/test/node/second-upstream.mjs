// A second upstream MCP server built with the official SDK (streamable HTTP), standing in for a new version of an
// upstream whose tool set changed: `echo` kept with a new description, `add` added, everything else gone.
// usage: PORT=NNNN node second-upstream.mjs
import express from "express";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const transports = new Map();
function server() {
  const s = new McpServer({ name: "second-upstream", version: "2.0.0" });
  s.registerTool("echo", { description: "Echoes back the input, version 2", inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: "text", text: `Echo v2: ${message}` }] }));
  s.registerTool("add", { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
  return s;
}
const app = express();
app.use(express.json());
app.post("/mcp", async (req, res) => {
  const id = req.headers["mcp-session-id"];
  let transport = id && transports.get(id);
  if (!transport) {
    transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => transports.set(sid, transport) });
    await server().connect(transport);
  }
  await transport.handleRequest(req, res, req.body);
});
const port = process.env.PORT || 3002;
app.listen(port, () => console.error(`second upstream listening on port ${port}`));
