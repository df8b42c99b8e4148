"""Stored answers from version 1 to version 2 (and back): inference.context_tokens (the prompt
plus the output) becomes prompt_tokens = context_tokens - output_tokens, in its place.

Rewrites every assessment's answers and the raw input a wizard step still holds for them
(pending_input), and every report version's frozen answers. The engine sees the same context
either way (prompt + output), so no stored result changes. The rules are written out here rather
than imported from advisor.engine.answers.upgrade: a migration must keep doing what it did when the
engine moves on.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import migrations

BATCH = 500


def _whole(value: Any) -> bool:
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )


def _version(answers: Any) -> int | None:
    version = answers.get("schema_version") if isinstance(answers, dict) else None
    return int(version) if _whole(version) else None


def _renamed(section: dict[str, Any], old: str, new: str, value: Any) -> dict[str, Any]:
    """`section` with `old` replaced by `new` (holding `value`) in the same place; with `value`
    None, `old` is left out."""
    out: dict[str, Any] = {}
    for key, item in section.items():
        if key != old:
            out[key] = item
        elif value is not None:
            out[new] = value
    return out


def answers_forward(answers: Any) -> Any:
    if _version(answers) != 1:
        return answers
    out = {**answers, "schema_version": 2}
    inference = out.get("inference")
    if isinstance(inference, dict) and "context_tokens" in inference:
        context, output = inference["context_tokens"], inference.get("output_tokens")
        if _whole(context) and _whole(output) and output <= context:
            out["inference"] = _renamed(
                inference, "context_tokens", "prompt_tokens", int(context) - int(output)
            )
        elif output is None:
            # A draft's context without its output cannot be split: the wizard asks again.
            out["inference"] = _renamed(inference, "context_tokens", "prompt_tokens", None)
        else:
            # More output than context was never stored (the engine refuses it); should one be,
            # it stays version 1, which every reader still accepts and refuses it by name.
            return answers
    return out


def answers_backward(answers: Any) -> Any:
    if _version(answers) != 2:
        return answers
    out = {**answers, "schema_version": 1}
    inference = out.get("inference")
    if isinstance(inference, dict) and "prompt_tokens" in inference:
        prompt, output = inference["prompt_tokens"], inference.get("output_tokens")
        context = int(prompt) + int(output) if _whole(prompt) and _whole(output) else None
        out["inference"] = _renamed(inference, "prompt_tokens", "context_tokens", context)
    return out


# What a person typed, as the wizard reads it back: a whole number, maybe with thousands
# separators (advisor.forms.base._GROUPED).
_TYPED = re.compile(r"^\s*\d{1,3}(?:[,\u00a0\u202f ]\d{3})+\s*$|^\s*\d+\s*$")


def _typed_number(values: Any) -> int | None:
    if isinstance(values, list) and len(values) == 1 and isinstance(values[0], str):
        if _TYPED.match(values[0]):
            return int(re.sub(r"\D", "", values[0]))
    return None


def pending_forward(pending: Any) -> Any:
    return _pending(pending, forward=True)


def pending_backward(pending: Any) -> Any:
    return _pending(pending, forward=False)


def _pending(pending: Any, *, forward: bool) -> Any:
    """The inference step's typed input waiting to be fixed, with its context field renamed.
    Typed numbers are worked out as the answers are; anything else typed for the old field
    is dropped (the step's fields changed, so it could not be shown against its question)."""
    step = pending.get("inference") if isinstance(pending, dict) else None
    data = step.get("data") if isinstance(step, dict) else None
    old, new = ("context_tokens", "prompt_tokens") if forward else ("prompt_tokens", "context_tokens")
    if not isinstance(data, dict) or old not in data:
        return pending
    given, output = _typed_number(data[old]), _typed_number(data.get("output_tokens"))
    value = None
    if given is not None and output is not None:
        if forward and output <= given:
            value = [str(given - output)]
        elif not forward:
            value = [str(given + output)]
    return {**pending, "inference": {**step, "data": _renamed(data, old, new, value)}}


def _rewrite(apps: Any, forward: bool) -> None:
    Assessment = apps.get_model("advisor", "Assessment")
    Report = apps.get_model("advisor", "Report")
    answers = answers_forward if forward else answers_backward
    pending = pending_forward if forward else pending_backward
    changed = []
    for row in Assessment.objects.only("pk", "answers", "pending_input").iterator(BATCH):
        new_answers, new_pending = answers(row.answers), pending(row.pending_input)
        if new_answers != row.answers or new_pending != row.pending_input:
            row.answers, row.pending_input = new_answers, new_pending
            changed.append(row)
    Assessment.objects.bulk_update(changed, ["answers", "pending_input"], batch_size=BATCH)
    reports = []
    for row in Report.objects.only("pk", "answers").iterator(BATCH):
        new_answers = answers(row.answers)
        if new_answers != row.answers:
            row.answers = new_answers
            reports.append(row)
    Report.objects.bulk_update(reports, ["answers"], batch_size=BATCH)


def forward(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, forward=True)


def backward(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, forward=False)


class Migration(migrations.Migration):
    dependencies = [
        ("advisor", "0018_measurement"),
    ]

    operations = [
        migrations.RunPython(forward, backward),
    ]
