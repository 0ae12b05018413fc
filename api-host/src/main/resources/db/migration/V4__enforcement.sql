-- What each sandbox's egress proxy must enforce, as the platform last resolved it: written by the sandbox feature
-- (and re-written when a policy, binding, credential or the sandbox changes), read by the proxy feed. Every write
-- takes the next value of one sequence, so a proxy resumes a stream "after version N". A deleted sandbox leaves a
-- tombstone (deleted = true) so a resuming proxy learns of the deletion too.
CREATE SEQUENCE enforcement_version;
CREATE TABLE sandbox_enforcement (
    sandbox_id  uuid PRIMARY KEY,
    org_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id  uuid NOT NULL,
    token_hash  bytea,
    revision    integer NOT NULL,
    bundle      jsonb NOT NULL,
    version     bigint NOT NULL,
    deleted     boolean NOT NULL DEFAULT false,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_enforcement_version ON sandbox_enforcement (version);
CREATE INDEX sandbox_enforcement_org ON sandbox_enforcement (org_id);
