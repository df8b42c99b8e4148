"""Each wizard step's form, for the pages that show and bind them.

The steps themselves (which exist, when they apply, when they are done) are `steps`, which
knows no form, so that services, selectors and reporting can count progress without
reaching the forms.
"""

from __future__ import annotations

from advisor.forms.base import StepForm
from advisor.wizard import forms as f
from advisor.wizard.steps import STEPS, Step

FORMS: dict[str, type[StepForm]] = {
    form.section: form
    for form in (
        f.OrganizationStepForm,
        f.WorkloadsStepForm,
        f.WorkStepForm,
        f.ModelStepForm,
        f.TrainingStepForm,
        f.InferenceStepForm,
        f.MaturityStepForm,
        f.FrameworksStepForm,
        f.DeploymentStepForm,
        f.CostStepForm,
    )
}

# Every step with a section has its form, and every form a step.
assert {s.section for s in STEPS if s.section is not None} == set(FORMS)  # noqa: S101


def form_for(step: Step) -> type[StepForm] | None:
    """The step's form class; None for the review."""
    return FORMS[step.section] if step.section is not None else None
