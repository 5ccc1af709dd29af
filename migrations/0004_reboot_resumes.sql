-- Jobs waiting for a reboot they asked for (spec.allow_reboot): the point to go on with and the
-- power mode the board must be in after the boot. The row is written before nvpmodel is told to
-- reboot the board and taken by the next start-up, which resumes the job there.
CREATE TABLE reboot_resumes (
  job_id      INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  point_index INTEGER NOT NULL,
  power_mode  INTEGER NOT NULL,
  created_ns  INTEGER NOT NULL  -- wall clock
);
