-- Registered Kubernetes clusters (spec: Connections). A cluster belongs to a project. The platform reaches it either
-- through the relay the customer runs inside the cluster (it connects out with its tunnel token, stored here only as
-- a SHA-256) or, when api_server_url is set, by dialing the cluster's API server directly (through the SSRF guard,
-- trusting ca_certificate when given).
CREATE TABLE clusters (
    id                      uuid PRIMARY KEY,
    org_id                  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id              uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name                    text NOT NULL,
    description             text NOT NULL DEFAULT '',
    api_server_url          text,
    ca_certificate          text,
    tunnel_token_hash       bytea NOT NULL,
    tunnel_token_rotated_at timestamptz NOT NULL DEFAULT now(),
    created_at              timestamptz NOT NULL DEFAULT now(),
    updated_at              timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT clusters_name_unique UNIQUE (project_id, name)
);
CREATE UNIQUE INDEX clusters_tunnel_token ON clusters (tunnel_token_hash);
CREATE INDEX clusters_org ON clusters (org_id);
