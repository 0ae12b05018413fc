-- Policy documents of enforcement sets by content hash (SHA-256 of the text, lowercase hex): a set lists its
-- documents' hashes, so a document shared by a thousand sandboxes is stored, sent to each proxy and compiled once.
-- A row's text never changes (its key is its hash), so proxies cache documents by hash for ever.
CREATE TABLE enforcement_documents (
    sha256      text PRIMARY KEY,
    body        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Move the documents of existing sets out of their bundles; each set keeps its version (its content is the same).
INSERT INTO enforcement_documents (sha256, body)
SELECT DISTINCT encode(sha256(convert_to(d.value::text, 'UTF8')), 'hex'), d.value::text
FROM sandbox_enforcement e,
     LATERAL (SELECT value FROM jsonb_array_elements(e.bundle -> 'grants')
              UNION ALL SELECT value FROM jsonb_array_elements(e.bundle -> 'ceiling')) d
WHERE NOT e.deleted
ON CONFLICT DO NOTHING;

UPDATE sandbox_enforcement e SET bundle = jsonb_build_object(
    'grants', COALESCE((SELECT jsonb_agg(encode(sha256(convert_to(g.value::text, 'UTF8')), 'hex') ORDER BY g.ord)
                        FROM jsonb_array_elements(e.bundle -> 'grants') WITH ORDINALITY AS g(value, ord)), '[]'::jsonb),
    'ceiling', COALESCE((SELECT jsonb_agg(encode(sha256(convert_to(c.value::text, 'UTF8')), 'hex') ORDER BY c.ord)
                         FROM jsonb_array_elements(e.bundle -> 'ceiling') WITH ORDINALITY AS c(value, ord)), '[]'::jsonb),
    'credentials', COALESCE(e.bundle -> 'credentials', '[]'::jsonb))
WHERE NOT e.deleted;
