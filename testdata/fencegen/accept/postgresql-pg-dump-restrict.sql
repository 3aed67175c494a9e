-- fenced: Doc
-- pg_dump (17.6 and later) writes psql meta-commands, which are not SQL.
\restrict 6Kb3GQ6MxYbjYEXL1h9xGn5j0kR0ld
CREATE TABLE public.docs (id bigint PRIMARY KEY, fence bigint);
\unrestrict 6Kb3GQ6MxYbjYEXL1h9xGn5j0kR0ld
