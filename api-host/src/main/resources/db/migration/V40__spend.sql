-- Usage costs and spending limits (spec: Limits, "Spending limits"; docs/spend.md).
--
-- usage_ledger: one row per metered model call (and per flagged unmetered direct call), written by the inference
-- proxy through spend.UsageLedger. Amounts are integer micro-USD; cost_micros is NULL when the service has no price
-- (such spend is not counted toward limits) and for a litellm call with no reported cost (counts zero). project_id
-- and sandbox_id carry no foreign key: deleting a project keeps its billing history (spec: Events 4); deleting the
-- organization erases it (the cascade on org_id).
CREATE TABLE usage_ledger (
    id             bigserial PRIMARY KEY,
    org_id         uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id     uuid NOT NULL,
    sandbox_id     uuid,
    provider       text NOT NULL CHECK (provider IN ('bedrock', 'azure', 'bedrock-mantle', 'openai', 'openrouter',
                                                     'litellm')),
    model          text NOT NULL CHECK (length(model) BETWEEN 1 AND 200),
    input_tokens   bigint NOT NULL CHECK (input_tokens >= 0),
    output_tokens  bigint NOT NULL CHECK (output_tokens >= 0),
    cost_micros    bigint CHECK (cost_micros >= 0),
    metered        boolean NOT NULL,
    occurred_at    timestamptz NOT NULL,
    recorded_at    timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX usage_ledger_org_time ON usage_ledger (org_id, occurred_at);
CREATE INDEX usage_ledger_project_time ON usage_ledger (org_id, project_id, occurred_at);

-- Spend that counts toward limits, summed per scope (org, project, sandbox) and period (UTC day, UTC month), updated
-- in the ledger row's transaction: admission reads at most three rows by primary key instead of summing the ledger.
CREATE TABLE spend_counters (
    org_id        uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    scope         text NOT NULL CHECK (scope IN ('org', 'project', 'sandbox')),
    target_id     uuid NOT NULL,
    period        text NOT NULL CHECK (period IN ('day', 'month')),
    period_start  timestamptz NOT NULL,
    cost_micros   bigint NOT NULL CHECK (cost_micros >= 0),
    PRIMARY KEY (scope, target_id, period, period_start)
);

-- One limit per organization, project or sandbox; target_id is the id of that organization, project or sandbox.
-- A project's or sandbox's limit goes with it.
CREATE TABLE spending_limits (
    org_id         uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    scope          text NOT NULL CHECK (scope IN ('org', 'project', 'sandbox')),
    target_id      uuid NOT NULL,
    project_id     uuid REFERENCES projects (id) ON DELETE CASCADE,
    sandbox_id     uuid REFERENCES sandboxes (id) ON DELETE CASCADE,
    amount_micros  bigint NOT NULL CHECK (amount_micros >= 0),
    period         text NOT NULL CHECK (period IN ('day', 'month')),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    updated_by     text NOT NULL,
    PRIMARY KEY (scope, target_id),
    CHECK (scope = 'org' AND project_id IS NULL AND sandbox_id IS NULL AND target_id = org_id
        OR scope = 'project' AND project_id IS NOT NULL AND sandbox_id IS NULL AND target_id = project_id
        OR scope = 'sandbox' AND project_id IS NOT NULL AND sandbox_id IS NOT NULL AND target_id = sandbox_id)
);
CREATE INDEX spending_limits_org ON spending_limits (org_id);
