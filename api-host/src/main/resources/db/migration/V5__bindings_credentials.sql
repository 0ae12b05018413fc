-- Policy bindings (spec "Scope, resolution and ceiling" 2): a policy reaches a user or an API token through a binding
-- at org level (project_id null: an org policy, in every project of the org) or at project level (a project policy
-- of that project, or an org policy, in that project only).
CREATE TABLE policy_bindings (
    id            uuid PRIMARY KEY,
    org_id        uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id    uuid REFERENCES projects (id) ON DELETE CASCADE,
    policy_id     uuid NOT NULL REFERENCES policies (id) ON DELETE CASCADE,
    subject_type  text NOT NULL CHECK (subject_type IN ('user', 'api-token')),
    subject_id    uuid NOT NULL,
    created_by    text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX policy_bindings_unique ON policy_bindings
    (org_id, COALESCE(project_id, '00000000-0000-0000-0000-000000000000'::uuid), policy_id, subject_type, subject_id);
CREATE INDEX policy_bindings_subject ON policy_bindings (subject_type, subject_id);
CREATE INDEX policy_bindings_project ON policy_bindings (project_id);

-- Egress credentials: project-owned (sandbox_id null) or owned by one sandbox (created and deleted with it). The
-- secret is sealed (Tink envelope, SecretBox) with the credential's id as associated data; no route returns it.
-- Names are unique per project across both kinds: a policy binds a credential by name, and the sentinel a sandbox
-- sees is derived from the name.
CREATE TABLE credentials (
    id             uuid PRIMARY KEY,
    org_id         uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id     uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    sandbox_id     uuid,
    name           text NOT NULL,
    domains        text[] NOT NULL,
    header_format  text,
    sealed_secret  text NOT NULL,
    created_by     text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, name)
);
CREATE INDEX credentials_sandbox ON credentials (sandbox_id) WHERE sandbox_id IS NOT NULL;
