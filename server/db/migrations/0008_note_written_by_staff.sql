-- A note written while support staff act as a company user names both people ("Sasha Support for Dana
-- Whitfield"). The staff member belongs to the platform's own company, whose users row-level security hides
-- from the tenant, so the note keeps the staff member's id and the name they had when writing.
ALTER TABLE notes ADD COLUMN written_by_staff_id bigint REFERENCES users ON DELETE SET NULL;
ALTER TABLE notes ADD COLUMN written_by_staff_name text;
