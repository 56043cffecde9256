"""Append-only schema history: a migration's position in MIGRATIONS is its version.

Never edit or reorder an entry that has shipped; add a new one. `{dim}` is the embedding
dimension of the corpus, fixed when the chunks table is created and recorded in corpus_meta.
"""

from __future__ import annotations

import psycopg

MIGRATIONS: list[str] = [
    # 1: the SEC data, keyed on SEC's own identifiers so re-ingestion is idempotent.
    """
    CREATE EXTENSION IF NOT EXISTS vector;

    CREATE TABLE corpus_meta (
        key   text PRIMARY KEY,
        value text NOT NULL
    );

    CREATE TABLE companies (
        cik             bigint PRIMARY KEY,
        name            text NOT NULL,
        tickers         text[] NOT NULL DEFAULT '{}',
        fiscal_year_end text,              -- MMDD as SEC gives it, e.g. '0928'
        updated_at      timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX companies_tickers ON companies USING gin (tickers);

    CREATE TABLE sec_tickers (             -- SEC's whole ticker map: tells "not covered" from "no such company"
        ticker text PRIMARY KEY,
        cik    bigint NOT NULL,
        title  text NOT NULL
    );
    CREATE INDEX sec_tickers_cik ON sec_tickers (cik);

    CREATE TABLE filings (
        accession     text PRIMARY KEY,    -- 0000320193-24-000123, or 'noacc-<cik>-<period_end>' when SEC's is unknown
        cik           bigint NOT NULL REFERENCES companies (cik),
        form          text NOT NULL,       -- 10-K, 10-K/A
        fiscal_year   int NOT NULL,        -- dei:DocumentFiscalYearFocus, the company's own label
        fiscal_period text NOT NULL DEFAULT 'FY',
        period_end    date NOT NULL,
        filed         date,
        url           text NOT NULL,       -- the SEC document (or filing index) URL
        content_hash  text NOT NULL,
        source        text,                -- where it was read from (path or URL)
        missing_items text[] NOT NULL DEFAULT '{}',
        ingested_at   timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX filings_cik_fy ON filings (cik, fiscal_year);

    CREATE TABLE sections (
        accession    text NOT NULL REFERENCES filings (accession) ON DELETE CASCADE,
        item         text NOT NULL,        -- '1', '1A', '1C', '7', '7A', '8'
        title        text NOT NULL,
        text         text NOT NULL,
        start_offset int,
        end_offset   int,
        method       text NOT NULL,        -- 'edgartools' or 'headings'
        PRIMARY KEY (accession, item)
    );

    CREATE TABLE chunks (
        id         bigserial PRIMARY KEY,
        accession  text NOT NULL REFERENCES filings (accession) ON DELETE CASCADE,
        cik        bigint NOT NULL,
        item       text NOT NULL,
        ordinal    int NOT NULL,
        is_table   boolean NOT NULL DEFAULT false,
        text       text NOT NULL,
        context    text NOT NULL,          -- the prefix embedded with the text
        n_tokens   int NOT NULL,           -- in the embedding model's own tokens, prefix included
        embedding  vector({dim}) NOT NULL,
        tsv        tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
        UNIQUE (accession, item, ordinal)
    );
    CREATE INDEX chunks_scope ON chunks (cik, accession, item);
    CREATE INDEX chunks_tsv ON chunks USING gin (tsv);
    CREATE INDEX chunks_embedding ON chunks USING hnsw (embedding vector_cosine_ops);

    CREATE TABLE facts (
        id           bigserial PRIMARY KEY,
        cik          bigint NOT NULL,
        accession    text NOT NULL,        -- the filing that reported it (not necessarily ingested as a document)
        taxonomy     text NOT NULL,        -- us-gaap, dei, ifrs-full, ...
        concept      text NOT NULL,
        unit         text NOT NULL,        -- USD, shares, USD/shares, pure
        value        numeric NOT NULL,
        decimals     text,
        period_start date,                 -- null for instants
        period_end   date NOT NULL,
        fiscal_year  int,                  -- the company's fiscal year the period belongs to (not the filing's fy)
        fy           int,                  -- as SEC gives them (the filing's)
        fp           text,
        form         text,
        frame        text,
        filed        date,
        dimensional  boolean NOT NULL DEFAULT false,
        dims         jsonb NOT NULL DEFAULT '{}',
        source       text NOT NULL,        -- 'companyfacts' or 'ixbrl'
        fact_key     text NOT NULL,        -- hash of (accession, concept, unit, period, dims): the natural key
        UNIQUE (fact_key)
    );
    CREATE INDEX facts_lookup ON facts (cik, concept, fiscal_year) WHERE NOT dimensional;
    CREATE INDEX facts_accession ON facts (accession);

    CREATE TABLE answer_cache (
        key            text PRIMARY KEY,   -- hash of normalized question + thread context + corpus version
        corpus_version text NOT NULL,
        answer         jsonb NOT NULL,
        created_at     timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE processed_events (
        event_id    text PRIMARY KEY,      -- platform event id: a retry of the same event is seen here
        platform    text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE feedback (
        id          bigserial PRIMARY KEY,
        platform    text NOT NULL,
        thread_key  text NOT NULL,
        user_id     text NOT NULL,
        rating      smallint NOT NULL,     -- +1 / -1
        question    text NOT NULL,
        answer      jsonb NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
    );
    """,
    # 2: the chat threads Footnote has answered in (a later message there is a follow-up, no
    # mention needed). They were kept as `thread:<key>` rows in processed_events; carried over.
    """
    CREATE TABLE bot_threads (
        thread_key  text PRIMARY KEY,      -- e.g. slack:{team}:{channel}:{thread_ts}
        platform    text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
    );

    INSERT INTO bot_threads (thread_key, platform, created_at)
    SELECT substr(event_id, 8), split_part(substr(event_id, 8), ':', 1), received_at
    FROM processed_events WHERE platform = 'thread' AND event_id LIKE 'thread:%'
    ON CONFLICT (thread_key) DO NOTHING;

    DELETE FROM processed_events WHERE platform = 'thread';
    """,
    # 3: each fact's statement row label in the company's own words (ingest.line_items), so a
    # question can name any line item the way the filing prints it. Keyed by filing: re-ingesting or
    # refreshing one filing replaces its rows.
    """
    CREATE TABLE IF NOT EXISTS line_labels (
        accession  text NOT NULL,
        cik        bigint NOT NULL,
        taxonomy   text NOT NULL,
        concept    text NOT NULL,
        label      text NOT NULL,          -- the row's first text cell, as printed
        statement  text NOT NULL,          -- income, balance, cash, other
        table_no   int NOT NULL,
        row_no     int NOT NULL,
        negated    boolean NOT NULL DEFAULT false,
        dims       jsonb NOT NULL DEFAULT '{}'
    );
    CREATE INDEX IF NOT EXISTS line_labels_cik ON line_labels (cik);
    CREATE INDEX IF NOT EXISTS line_labels_accession ON line_labels (accession);
    -- segment, product and region figures (store.segments): dimensional facts by company and concept
    CREATE INDEX IF NOT EXISTS facts_dims_lookup ON facts (cik, concept, fiscal_year) WHERE dimensional;
    """,
    # 4: turns waiting in a chat thread (answered in order, see store/turns.py); one
    # vote per user per answer (latest wins), with what was wrong.
    """
    CREATE TABLE IF NOT EXISTS pending_turns (
        thread_key  text NOT NULL,
        turn_id     text NOT NULL,         -- the platform's message id
        position    numeric NOT NULL,      -- its place in the thread (Slack's ts, or arrival time)
        created_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (thread_key, turn_id)
    );

    ALTER TABLE feedback
        ADD COLUMN IF NOT EXISTS answer_ref text,        -- the answer voted on, e.g. slack:{channel}:{ts}
        ADD COLUMN IF NOT EXISTS reason     text,        -- wrong_figure, wrong_company_year, not_what_i_asked, other
        ADD COLUMN IF NOT EXISTS comment    text,
        ADD COLUMN IF NOT EXISTS updated_at timestamptz NOT NULL DEFAULT now();
    CREATE UNIQUE INDEX IF NOT EXISTS feedback_one_vote ON feedback (platform, answer_ref, user_id) WHERE answer_ref IS NOT NULL;
    """,
    # 5: quarters (10-Q filings). A fact's fiscal quarter, in the company's own fiscal year, beside
    # its fiscal_year: the quarter (1-4) whose end the period's end is, NULL when it ends on no
    # quarter end (a cover date). Read with the duration: three months ending at Q2 is Q2, six
    # months is the first half (year to date), an instant is the balance at Q2's end, a year is
    # the fiscal year (Q4). filings.fiscal_period says Q1/Q2/Q3 for a 10-Q, FY for a 10-K.
    # Filled at ingest (store.fiscal.fiscal_quarter_for), and for facts stored before this
    # migration by the next `footnote ingest` (corpus_meta 'fiscal_quarters' records it is done).
    """
    ALTER TABLE facts ADD COLUMN IF NOT EXISTS fiscal_quarter smallint;
    CREATE INDEX IF NOT EXISTS filings_cik_form ON filings (cik, form, fiscal_year, fiscal_period);
    """,
    # 6: chat events the web front acknowledged, waiting for an answer worker (store/inbound.py);
    # the Teams cards Footnote sent, with their conversation's reference, so a vote that reaches
    # another process is shown on the card it was cast on (store/teams_cards.py).
    """
    CREATE TABLE IF NOT EXISTS inbound_events (
        id          bigserial PRIMARY KEY,
        platform    text NOT NULL,
        event_id    text NOT NULL UNIQUE,  -- platform:id; a redelivery is not queued twice
        body        text NOT NULL,         -- the request as received, its signature already checked
        headers     jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        taken_at    timestamptz,           -- by a worker; a take older than the lease is taken again
        taken_by    text
    );
    CREATE INDEX IF NOT EXISTS inbound_events_waiting ON inbound_events (platform, id) WHERE taken_at IS NULL;

    CREATE TABLE IF NOT EXISTS teams_cards (
        conversation_id text NOT NULL,
        activity_id     text NOT NULL,     -- the id the connector gave the sent card
        card            jsonb NOT NULL,    -- the Adaptive Card as sent (and as last updated)
        reference       jsonb NOT NULL,    -- botbuilder's ConversationReference, serialized
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (conversation_id, activity_id)
    );
    """,
    # 7: passages, each prose sentence of a chunk embedded on its own (store/passages.py): a chunk
    # whose answering sentence sits among unrelated ones has a vector far from the question, its
    # best sentence's is not. passage_filings records the filings done (and their chunks' last id,
    # so a filing whose chunks were written again is done again); `footnote ingest --passages`
    # fills a corpus stored before this migration.
    """
    CREATE TABLE IF NOT EXISTS passages (
        chunk_id  bigint NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
        ordinal   int NOT NULL,            -- the sentence's place among the chunk's passages
        embedding vector({dim}) NOT NULL,
        PRIMARY KEY (chunk_id, ordinal)
    );
    CREATE TABLE IF NOT EXISTS passage_filings (
        accession  text PRIMARY KEY REFERENCES filings (accession) ON DELETE CASCADE,
        last_chunk bigint NOT NULL,        -- max(chunks.id) of the filing when its passages were written
        passages   int NOT NULL
    );
    """,
]


def apply(conn: psycopg.Connection, *, dim: int, model: str) -> int:
    """Bring the schema up to date; return the version. Safe to call from several processes at once."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(815431)")
        conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
        current = row[0]
        for version, sql in enumerate(MIGRATIONS, start=1):
            if version <= current:
                continue
            conn.execute(sql.replace("{dim}", str(int(dim))))
            conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (version,))
            if version == 1:
                conn.execute(
                    "INSERT INTO corpus_meta (key, value) VALUES ('embedding_model', %s), ('embedding_dim', %s), ('corpus_version', '0')",
                    (model, str(dim)),
                )
        return len(MIGRATIONS)
