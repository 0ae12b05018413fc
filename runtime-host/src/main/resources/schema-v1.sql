-- The agent runtime's SQLite schema, version 1. Statements are separated by lines holding only ';;'.
CREATE TABLE agent (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  team_name TEXT NOT NULL,
  owner_user_id TEXT NOT NULL,
  model_override TEXT,
  heartbeat_model_override TEXT,
  cron_model_override TEXT,
  verbose INTEGER NOT NULL DEFAULT 0,
  locked_in INTEGER NOT NULL DEFAULT 0,
  timezone TEXT NOT NULL DEFAULT 'UTC',
  heartbeat_interval_minutes INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
)
;;
CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)
;;
CREATE TABLE documents (kind TEXT PRIMARY KEY, content TEXT NOT NULL, updated_at TEXT NOT NULL)
;;
CREATE TABLE threads (
  id TEXT PRIMARY KEY,
  channel TEXT NOT NULL,
  title TEXT NOT NULL,
  hidden INTEGER NOT NULL DEFAULT 0,
  summary TEXT,
  created_at TEXT NOT NULL
)
;;
CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  thread_id TEXT NOT NULL REFERENCES threads(id),
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  internal INTEGER NOT NULL DEFAULT 0,
  compacted INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
)
;;
CREATE INDEX messages_thread ON messages(thread_id, id)
;;
CREATE TABLE memory (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  content TEXT NOT NULL,
  embedding BLOB,
  created_at TEXT NOT NULL
)
;;
CREATE VIRTUAL TABLE memory_fts USING fts5(content, content='memory', content_rowid='id')
;;
CREATE TRIGGER memory_ai AFTER INSERT ON memory BEGIN
  INSERT INTO memory_fts(rowid, content) VALUES (new.id, new.content);
END
;;
CREATE TRIGGER memory_ad AFTER DELETE ON memory BEGIN
  INSERT INTO memory_fts(memory_fts, rowid, content) VALUES ('delete', old.id, old.content);
END
;;
CREATE TABLE webhooks (
  name TEXT PRIMARY KEY,
  description TEXT NOT NULL DEFAULT '',
  events TEXT NOT NULL DEFAULT '',
  deliver_to TEXT NOT NULL DEFAULT 'all',
  deliver_only INTEGER NOT NULL DEFAULT 0,
  prompt TEXT NOT NULL DEFAULT '',
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
)
;;
CREATE TABLE webhook_runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  webhook TEXT NOT NULL,
  event TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  finished_at TEXT,
  outcome TEXT
)
;;
CREATE INDEX webhook_runs_open ON webhook_runs(webhook, status, seq)
;;
CREATE TABLE slack_destinations (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  slack_id TEXT NOT NULL,
  main INTEGER NOT NULL DEFAULT 0,
  thread_id TEXT,
  created_at TEXT NOT NULL
)
;;
CREATE TABLE cron_tasks (
  id TEXT PRIMARY KEY,
  expression TEXT NOT NULL,
  prompt TEXT NOT NULL,
  model TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  last_run TEXT,
  created_at TEXT NOT NULL
)
