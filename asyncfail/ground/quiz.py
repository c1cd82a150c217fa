"""A check-your-understanding question: its prompt, its options, and how an answer is judged."""

from pydantic import BaseModel, model_validator

from asyncfail.ground.frozen import FROZEN


class Question(BaseModel):
    """A multiple-choice question with exactly one right option and an explanation."""

    model_config = FROZEN

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
