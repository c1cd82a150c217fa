"""Check-your-understanding questions: the prompt, the options, and how an answer is judged."""

from pydantic import BaseModel, ConfigDict, model_validator


class Question(BaseModel):
    """A multiple-choice question with exactly one right option and an explanation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    prompt: str
    options: tuple[str, ...]
    answer: str
    explanation: str

    @model_validator(mode="after")
    def _answer_is_an_option(self) -> "Question":
        if self.answer not in self.options:
            raise ValueError("answer must be one of the options")
        return self

    def feedback(self, choice: str | None) -> str:
        """Empty before an answer; otherwise right or not, always with the explanation."""
        if choice is None:
            return ""
        verdict = "Right." if choice == self.answer else "Not quite."
        return f"{verdict} {self.explanation}"


LAB_QUESTION = Question(
    prompt=(
        "Under `crash-after-effect`, what lets the durable runtime's second attempt avoid a "
        "second debit?"
    ),
    options=(
        "It retries more slowly than the naive loop.",
        "It looks the stable operation key up at the receiver before calling the tool again.",
        "Its worker does not crash.",
        "The receiver rejects every second request.",
    ),
    answer="It looks the stable operation key up at the receiver before calling the tool again.",
    explanation=(
        "The crash happens in both runtimes and both get a second delivery. Only the durable "
        "runtime treats the missing result as unknown and reconciles by key: the lookup finds "
        "the debit, so it records the result instead of repeating the effect."
    ),
)


CONTRACT_QUESTION = Question(
    prompt=(
        "The key is the delivery attempt id, retention is 3600 s, and the same intent arrives "
        "again 60 s later. What does the receiver do?"
    ),
    options=(
        "It reuses the retained result: 60 s is well within the retention.",
        "It applies the debit a second time.",
        "It rejects the request with 422.",
    ),
    answer="It applies the debit a second time.",
    explanation=(
        "The second delivery attempt has a new id, so its key was never stored: the record is "
        "absent, not expired, and no retention can help. The key must identify the business "
        "intent, (tenant, operation), not the delivery."
    ),
)
