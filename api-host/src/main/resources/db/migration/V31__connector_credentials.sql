-- Connector credentials (spec "Connections": static secrets with a header format, or OAuth tokens from an
-- operator-configured application), sealed at rest and never returned; pending OAuth authorizations (state and PKCE
-- verifier, single use, short-lived); and the visibility of a connector's tool entries.
CREATE TABLE mcp_server_credentials (
    id             uuid PRIMARY KEY,
    server_id      uuid NOT NULL REFERENCES mcp_servers (id) ON DELETE CASCADE,
    name           text NOT NULL,
    kind           text NOT NULL CHECK (kind IN ('static', 'oauth')),
    header_format  text,
    sealed_secret  text,
    application    text,
    sealed_tokens  text,
    expires_at     timestamptz,
    connected_at   timestamptz,
    created_by     text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (server_id, name)
);

CREATE TABLE mcp_oauth_states (
    state            text PRIMARY KEY,
    credential_id    uuid NOT NULL REFERENCES mcp_server_credentials (id) ON DELETE CASCADE,
    sealed_verifier  text NOT NULL,
    expires_at       timestamptz NOT NULL
);

CREATE TABLE mcp_server_entries (
    server_id   uuid NOT NULL REFERENCES mcp_servers (id) ON DELETE CASCADE,
    entry_name  text NOT NULL,
    visible     boolean NOT NULL,
    updated_by  text NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (server_id, entry_name)
);
