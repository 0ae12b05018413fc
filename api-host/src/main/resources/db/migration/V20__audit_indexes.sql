-- Audit-trail pages filtered by kind or by project. audit_entries_page (org_id, at DESC, id DESC) serves the
-- unfiltered trail and its cursor, but a filter on a rare kind made it walk the organization's entries until it had
-- found a page (1 in 2000 of 1,000,000: 100,000 rows per page; docs/benchmarks.md, "Platform host"). These put the
-- filter column before the page order, so such a page reads about as many index entries as it returns.
CREATE INDEX audit_entries_kind_page ON audit_entries (org_id, kind, at DESC, id DESC);
CREATE INDEX audit_entries_project_page ON audit_entries (org_id, project_id, at DESC, id DESC);
