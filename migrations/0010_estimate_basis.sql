-- Issue 56 item 4, "Estimates that learn": what each estimate was made from, and what the cost
-- model learns per board from whole jobs besides their time.
--
-- A job's estimate at submission (estimate_s) and as refreshed while it runs (estimate_now_s)
-- each say what they came from: 'pace' (the job's own finished points: count = how many), 'cost_model'
-- (what finished jobs taught this board's cost model: count = how many jobs), 'static' (the kind's
-- own model, nothing learned yet). '' for jobs stored before: the basis is not known.
ALTER TABLE jobs ADD COLUMN estimate_basis TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN estimate_basis_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN estimate_now_basis TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN estimate_now_basis_count INTEGER NOT NULL DEFAULT 0;

-- Per kind: how many jobs the calibration learned from (a row from before this column had at least
-- one), and the windows its points measured against the points (decaying sums, as predicted_s and
-- actual_s): a host whose windows are contended measures each one again, and the next job's
-- estimate counts those windows from the start.
ALTER TABLE cost_calibration ADD COLUMN jobs INTEGER NOT NULL DEFAULT 1;
ALTER TABLE cost_calibration ADD COLUMN windows REAL NOT NULL DEFAULT 0;
ALTER TABLE cost_calibration ADD COLUMN window_points REAL NOT NULL DEFAULT 0;
