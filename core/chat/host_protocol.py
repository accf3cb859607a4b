"""What a chat process and a corpus's answering process say to each other: one JSON message a frame."""
from __future__ import annotations

import threading
from multiprocessing.connection import Connection
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from core.answer.events import AnswerEvent
from core.answer.models import AnswerEnvelope
from core.chat.controls import RunOptions


class Start(BaseModel):
    """The first message: the settings the chat process runs with (a test's or a bench's may differ from the
    environment's), and the one corpus this process answers for."""

    kind: Literal["start"] = "start"
    settings: dict[str, Any]
    corpus: str


class Prepare(BaseModel):
    """Sent to a spare as it starts, before it has a corpus: the chat's settings, whose embedding model it loads and
    runs once before it says Ready. Done ahead, at the lowest priority, the model's load and first pass are not part
    of the first answer on the corpus it is given: 0.3-0.5 s less for that user (bench/results/OPEN_STALL.md, stop
    48)."""

    kind: Literal["prepare"] = "prepare"
    settings: dict[str, Any]


class Ask(BaseModel):
    kind: Literal["ask"] = "ask"
    id: str
    question: str
    options: RunOptions
    for_api: bool = False  # the API's answer: the stores whole, not under the chat panel's caps


class Cancel(BaseModel):
    """The chat client went away, or the chat process gave up waiting: stop the run and send nothing more."""

    kind: Literal["cancel"] = "cancel"
    id: str


class Ready(BaseModel):
    """Sent once the process has its libraries loaded (and, if it was sent Prepare, its model): a run's silence is
    counted from here, not from the start."""

    kind: Literal["ready"] = "ready"
    id: str = ""
    model_loaded: bool = False  # a spare that was sent Prepare: whether its embedding model is loaded


class Progress(BaseModel):
    kind: Literal["progress"] = "progress"
    id: str
    event: AnswerEvent


class Done(BaseModel):
    kind: Literal["done"] = "done"
    id: str
    envelope: AnswerEnvelope | None


class Failed(BaseModel):
    kind: Literal["failed"] = "failed"
    id: str
    error: str


ToHost = Annotated[Start | Prepare | Ask | Cancel, Field(discriminator="kind")]
FromHost = Annotated[Ready | Progress | Done | Failed, Field(discriminator="kind")]
TO_HOST: TypeAdapter[Start | Prepare | Ask | Cancel] = TypeAdapter(ToHost)
FROM_HOST: TypeAdapter[Ready | Progress | Done | Failed] = TypeAdapter(FromHost)


def send(connection: Connection, lock: threading.Lock, message: BaseModel) -> None:
    """One message, one frame; the lock keeps the frames of threads sending at once apart."""
    with lock:
        connection.send_bytes(message.model_dump_json().encode())
