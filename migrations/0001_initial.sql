-- The first schema: jobs with their tags, points and events, telemetry channels, and the journal
-- of board-settings snapshots. Timestamps named *_ns are int64 nanoseconds: wall clock for the
-- job and snapshot lifecycle (display), CLOCK_MONOTONIC for points, events and samples.

CREATE TABLE jobs (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,  -- AUTOINCREMENT: ids of deleted jobs are never reused
  kind         TEXT    NOT NULL,
  state        TEXT    NOT NULL,
  spec_json    TEXT    NOT NULL,
  created_ns   INTEGER NOT NULL,
  started_ns   INTEGER NOT NULL DEFAULT 0,
  finished_ns  INTEGER NOT NULL DEFAULT 0,
  points_total INTEGER NOT NULL DEFAULT 0,
  points_done  INTEGER NOT NULL DEFAULT 0,
  estimate_s   REAL    NOT NULL DEFAULT 0,
  error        TEXT    NOT NULL DEFAULT '',
  summary_json TEXT    NOT NULL DEFAULT '{}'
);

CREATE TABLE job_tags (
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  tag    TEXT    NOT NULL,
  PRIMARY KEY (job_id, tag)
);

CREATE TABLE points (
  job_id       INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  idx          INTEGER NOT NULL,
  status       TEXT    NOT NULL,
  params_json  TEXT    NOT NULL,
  metrics_json TEXT    NOT NULL,
  t_start_ns   INTEGER NOT NULL,
  t_end_ns     INTEGER NOT NULL,
  PRIMARY KEY (job_id, idx)
);

CREATE TABLE channels (
  id     INTEGER PRIMARY KEY,
  name   TEXT NOT NULL UNIQUE,
  unit   TEXT NOT NULL,
  source TEXT NOT NULL
);

-- job_id is 0 for a change made through the API, so it is not a foreign key.
CREATE TABLE snapshots (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id      INTEGER NOT NULL DEFAULT 0,
  created_ns  INTEGER NOT NULL,
  restored_ns INTEGER NOT NULL DEFAULT 0,
  reason      TEXT    NOT NULL,
  state_json  TEXT    NOT NULL
);

CREATE TABLE events (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id    INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  t_ns      INTEGER NOT NULL,
  type      TEXT    NOT NULL,
  data_json TEXT    NOT NULL
);
