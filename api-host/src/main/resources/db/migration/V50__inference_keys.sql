-- Org inference keys (spec: Inference routes, PUT /orgs/{orgId}/inference/keys/{source}; Authentication rule 3).
-- One key per organization and backend, sealed with the installation's envelope encryption (kernel.secrets.SecretBox,
-- context `inference-key:<orgId>:<source>`), never returned or logged. A key goes with its organization.
CREATE TABLE inference_keys (
    org_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    source      text NOT NULL CHECK (source IN ('bedrock', 'azure', 'bedrock-mantle', 'openai', 'openrouter',
                                                'litellm')),
    sealed      text NOT NULL,
    updated_at  timestamptz NOT NULL,
    updated_by  text NOT NULL,
    PRIMARY KEY (org_id, source)
);
