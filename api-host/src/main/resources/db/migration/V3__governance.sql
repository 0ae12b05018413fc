-- Standalone policies (spec "Governance"): an org policy has no project; a project policy names its project.
-- The document is stored as the core normalised it (jsonb) and as the caller wrote it (source, JSON or YAML).
CREATE TABLE policies (
    id          uuid PRIMARY KEY,
    org_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id  uuid REFERENCES projects (id) ON DELETE CASCADE,
    name        text NOT NULL,
    document    jsonb NOT NULL,
    source      text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
-- Names are unique per scope: per organization for org policies, per project for project policies.
CREATE UNIQUE INDEX policies_org_name ON policies (org_id, name) WHERE project_id IS NULL;
CREATE UNIQUE INDEX policies_project_name ON policies (project_id, name) WHERE project_id IS NOT NULL;
