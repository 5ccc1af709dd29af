-- Each job's timeline on CLOCK_MONOTONIC (GET /v1/jobs/{id}/trace): spans (t_end_ns > t_start_ns)
-- and instants (t_end_ns = t_start_ns) on named tracks: points and their measurement windows,
-- settings changes, idle baselines, timed runs (a bounded sample per point: the point's span
-- says how many there were), a command job's runs, marked phases and markers. point_index is
-- null for what belongs to the job as a whole.
CREATE TABLE timeline (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id      INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  point_index INTEGER,
  track       TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  t_start_ns  INTEGER NOT NULL,
  t_end_ns    INTEGER NOT NULL,
  args_json   TEXT    NOT NULL DEFAULT '{}'
);
CREATE INDEX timeline_by_job ON timeline (job_id, t_start_ns);
