-- Sandboxes (spec "Sandbox (fields shown)", "States and transitions"). The configuration of each revision is kept in
-- sandbox_revisions; the sandbox row points at the active one and carries the state, the timers and the proxy token
-- (a sandbox token of the project, sealed, so a re-provision can hand it to the sandbox again).
CREATE TABLE sandboxes (
    id                 uuid PRIMARY KEY,
    org_id             uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id         uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name               text NOT NULL,
    slug               text NOT NULL UNIQUE,
    state              text NOT NULL CHECK (state IN ('creating', 'starting', 'running', 'stopped', 'error')),
    detail             text NOT NULL DEFAULT '',
    stopped_by         text,
    active_revision    integer NOT NULL,
    previous_revision  integer,
    auto_stop_seconds  bigint,
    auto_delete_seconds bigint,
    auto_start         boolean NOT NULL DEFAULT false,
    token_id           uuid NOT NULL,
    token_sealed       text NOT NULL,
    last_activity_at   timestamptz NOT NULL,
    state_changed_at   timestamptz NOT NULL,
    created_by         text NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, name)
);
CREATE INDEX sandboxes_project ON sandboxes (project_id);
CREATE INDEX sandboxes_running_idle ON sandboxes (last_activity_at) WHERE state = 'running' AND auto_stop_seconds IS NOT NULL;
CREATE INDEX sandboxes_stopped ON sandboxes (state_changed_at) WHERE state = 'stopped' AND auto_delete_seconds IS NOT NULL;

CREATE TABLE sandbox_revisions (
    sandbox_id   uuid NOT NULL REFERENCES sandboxes (id) ON DELETE CASCADE,
    revision     integer NOT NULL,
    config       jsonb NOT NULL,
    provisioned  jsonb,
    created_by   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (sandbox_id, revision)
);
