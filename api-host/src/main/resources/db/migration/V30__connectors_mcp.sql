-- Connectors (spec "Connections": upstream MCP servers the platform connects to outward, and HTTP APIs described by an
-- OpenAPI 3 document, whose url is the API's base and document_url where the document is re-read) and their tool specs, and
-- the MCP endpoint's sessions. A spec is the discovered tool list of a connector: one active spec is exposed; a
-- re-discovery that differs becomes a pending spec that exposes nothing until promoted.
CREATE TABLE mcp_servers (
    id           uuid PRIMARY KEY,
    org_id       uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id   uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name         text NOT NULL,
    kind         text NOT NULL CHECK (kind IN ('mcp', 'http')),
    url          text NOT NULL,
    document_url text,
    status       text NOT NULL CHECK (status IN ('ready', 'error')),
    last_error   text,
    created_by   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    synced_at    timestamptz,
    UNIQUE (project_id, name)
);
CREATE INDEX mcp_servers_org ON mcp_servers (org_id);

CREATE TABLE mcp_server_specs (
    id          uuid PRIMARY KEY,
    server_id   uuid NOT NULL REFERENCES mcp_servers (id) ON DELETE CASCADE,
    status      text NOT NULL CHECK (status IN ('active', 'pending', 'superseded')),
    tools       jsonb NOT NULL,
    digest      text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX mcp_server_specs_active ON mcp_server_specs (server_id) WHERE status = 'active';
CREATE INDEX mcp_server_specs_server ON mcp_server_specs (server_id, created_at);

-- An MCP session belongs to the identity that initialized it (a digest of its principal) and to one endpoint
-- (project_id null: the organization-wide /mcp). Any replica serves any session.
CREATE TABLE mcp_sessions (
    id                text PRIMARY KEY,
    principal         text NOT NULL,
    project_id        uuid,
    protocol_version  text NOT NULL,
    client_name       text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    last_used_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mcp_sessions_last_used ON mcp_sessions (last_used_at);
