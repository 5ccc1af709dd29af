-- What the estimates learn from this board (jobs/cost_model): how long one run of a point took
-- against its work (FLOPs, divided by the clock the point set, so that one clock's runs predict
-- another's) and how much its runs varied (cv: standard deviation over mean, which sets how long
-- an adaptive window needs), the newest few hundred per kind and class of point; and how long
-- whole points took against what was predicted for them, as decaying sums per kind. `scope` names the board, so a
-- database moved to another board (or a simulated board of another profile) starts afresh.
CREATE TABLE run_costs (
  id    INTEGER PRIMARY KEY AUTOINCREMENT,
  scope TEXT NOT NULL,
  kind  TEXT NOT NULL,
  class TEXT NOT NULL,
  work  REAL NOT NULL,
  run_s REAL NOT NULL,
  cv    REAL NOT NULL
);
CREATE INDEX run_costs_by_class ON run_costs (scope, kind, class, id);

CREATE TABLE cost_calibration (
  scope       TEXT NOT NULL,
  kind        TEXT NOT NULL,
  predicted_s REAL NOT NULL,
  actual_s    REAL NOT NULL,
  PRIMARY KEY (scope, kind)
);

-- The estimate of the job's whole duration as refreshed while it runs (estimate_s stays the
-- estimate given at submission).
ALTER TABLE jobs ADD COLUMN estimate_now_s REAL NOT NULL DEFAULT 0;
