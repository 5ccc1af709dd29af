-- Where a job's numbers come from: the board (simulated or real), L4T, jetperf's version and
-- commit, the power sensor and the sampling it achieved, the backend libraries' versions.
-- JSON, written when the job starts and again when it ends.
ALTER TABLE jobs ADD COLUMN provenance_json TEXT NOT NULL DEFAULT '{}';
