-- AWS connections (spec: Connections, "Cloud connections"). A connection names an IAM role in a customer's account
-- that the platform assumes through STS with an external ID, on behalf of a sandbox whose policy names the
-- connection; the sandbox receives the short-lived credentials through the container credentials protocol. The
-- external ID is not a secret per AWS (it guards against the confused deputy), so it is stored as is and shown; the
-- platform's own AWS credentials are never stored here (they come from its default provider chain).
CREATE TABLE aws_connections (
    id                       uuid PRIMARY KEY,
    org_id                   uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id               uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name                     text NOT NULL,
    role_arn                 text NOT NULL,
    external_id              text NOT NULL,
    region                   text NOT NULL,
    session_duration_seconds integer NOT NULL CHECK (session_duration_seconds BETWEEN 900 AND 43200),
    sts_endpoint             text,
    created_at               timestamptz NOT NULL DEFAULT now(),
    updated_at               timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT aws_connections_name_unique UNIQUE (project_id, name)
);
CREATE INDEX aws_connections_org ON aws_connections (org_id);
