-- Issue "A typed middle": each stored job says which version of its kind's spec it was stored in,
-- and the kind upgrades an older one when it reads it (one upgrade(spec, from_version) per kind,
-- in place of fallbacks scattered through its readers). 0: stored before versions existed.
ALTER TABLE jobs ADD COLUMN spec_version INTEGER NOT NULL DEFAULT 0;
