-- The lock table for a dialect of the application's own whose platform is userdb, on H2: H2's script, and a marker
-- table that shows this script, chosen by that platform, is the one that ran.
RUNSCRIPT FROM 'classpath:io/distlock/jdbc/dialect/schema-h2.sql';

CREATE TABLE IF NOT EXISTS userdb_schema_marker (id INT);
