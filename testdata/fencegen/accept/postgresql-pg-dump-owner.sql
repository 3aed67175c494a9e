-- fenced: Author
-- pg_dump writes ALTER TABLE ... OWNER TO for sequences too.
CREATE TABLE public.authors (id bigint NOT NULL, name text NOT NULL, fence bigint);
ALTER TABLE public.authors OWNER TO postgres;
CREATE SEQUENCE public.authors_id_seq START WITH 1 INCREMENT BY 1 NO MINVALUE NO MAXVALUE CACHE 1;
ALTER TABLE public.authors_id_seq OWNER TO postgres;
ALTER SEQUENCE public.authors_id_seq OWNED BY public.authors.id;
ALTER TABLE ONLY public.authors ADD CONSTRAINT authors_pkey PRIMARY KEY (id);
