-- Foundation of the platform host: installation, identity, tenancy, halt, audit and the event outbox.
-- Ids are UUIDs minted by the application; timestamps are timestamptz (UTC).

CREATE TABLE installation (
    id              smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    installation_id uuid        NOT NULL,
    setup_code      text,                       -- sealed (SecretBox); null when supplied by the operator
    fleet_id        text,
    hub_url         text,
    hub_token       text,                       -- sealed fleet access token
    enrolled_at     timestamptz,
    owner           text,
    auth_mode       text,
    revoked_at      timestamptz,
    dev_hub         boolean     NOT NULL DEFAULT false,
    last_heartbeat_at timestamptz,
    heartbeat_error text,
    owner_token_issued_at timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
    id          uuid PRIMARY KEY,
    issuer      text NOT NULL,
    subject     text NOT NULL,
    email       text,
    name        text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (issuer, subject)
);
CREATE INDEX users_email ON users (lower(email));

CREATE TABLE organizations (
    id          uuid PRIMARY KEY,
    name        text NOT NULL,
    halted      boolean NOT NULL DEFAULT false,
    halted_at   timestamptz,
    halted_by   text,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE org_members (
    org_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        text NOT NULL CHECK (role IN ('ADMIN', 'MEMBER')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, user_id)
);
CREATE INDEX org_members_user ON org_members (user_id);

CREATE TABLE projects (
    id          uuid PRIMARY KEY,
    org_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name        text NOT NULL,
    description text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (org_id, name)
);

-- API tokens: org-scoped (org_id set) or the installation owner's (org_id null, owner true).
CREATE TABLE api_tokens (
    id          uuid PRIMARY KEY,
    org_id      uuid REFERENCES organizations (id) ON DELETE CASCADE,
    owner       boolean NOT NULL DEFAULT false,
    name        text NOT NULL,
    token_hash  bytea NOT NULL UNIQUE,
    prefix      text NOT NULL,
    created_by  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz,
    revoked_at  timestamptz,
    CHECK (owner OR org_id IS NOT NULL)
);
CREATE INDEX api_tokens_org ON api_tokens (org_id);
CREATE UNIQUE INDEX api_tokens_one_owner ON api_tokens (owner) WHERE owner;

CREATE TABLE project_members (
    project_id     uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    principal_type text NOT NULL CHECK (principal_type IN ('user', 'api-token')),
    principal_id   uuid NOT NULL,
    role           text NOT NULL CHECK (role IN ('ADMIN', 'MEMBER')),
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, principal_type, principal_id)
);
CREATE INDEX project_members_principal ON project_members (principal_type, principal_id);

CREATE TABLE invitations (
    id          uuid PRIMARY KEY,
    org_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email       text NOT NULL,
    role        text NOT NULL CHECK (role IN ('ADMIN', 'MEMBER')),
    created_by  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    accepted_at timestamptz,
    UNIQUE (org_id, email)
);
CREATE INDEX invitations_email ON invitations (lower(email));

CREATE TABLE sandbox_tokens (
    id          uuid PRIMARY KEY,
    project_id  uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name        text NOT NULL,
    token_hash  bytea NOT NULL UNIQUE,
    prefix      text NOT NULL,
    created_by  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz,
    revoked_at  timestamptz
);
CREATE INDEX sandbox_tokens_project ON sandbox_tokens (project_id);

-- Project signing keys (cluster JWTs): the private key sealed; retired keys stay published until retire_after.
CREATE TABLE project_keys (
    kid          text PRIMARY KEY,
    project_id   uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    public_jwk   text NOT NULL,
    private_jwk  text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    retired_at   timestamptz
);
CREATE INDEX project_keys_project ON project_keys (project_id);

-- The audit trail. No foreign key to projects: a deleted project's history stays (spec: Events 4);
-- the organization's erasure deletes its rows.
CREATE TABLE audit_entries (
    id          bigserial PRIMARY KEY,
    org_id      uuid REFERENCES organizations (id) ON DELETE CASCADE,
    project_id  uuid,
    at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    kind        text NOT NULL,
    action      text NOT NULL,
    is_read     boolean NOT NULL DEFAULT false,
    outcome     text NOT NULL,
    actor_type  text NOT NULL,
    actor_id    text,
    target      text,
    details     jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_entries_page ON audit_entries (org_id, at DESC, id DESC);

-- Events through the database: rows written in the change's transaction, NOTIFY wakes listeners on every replica.
CREATE TABLE events (
    id          bigserial PRIMARY KEY,
    topic       text NOT NULL,
    org_id      uuid,
    payload     jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION events_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('stockade_events', NEW.id::text);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_notify();
